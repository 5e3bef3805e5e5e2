import type { Logger } from '@ces/observability';
import type { HistorySweep } from '@ces/store';

/** How often a worker offers to sweep; the sweep's lock lets one pass run per interval fleet-wide. */
export const HISTORY_SWEEP_INTERVAL_MS = 60_000;

/** Runs the run history's sweep (history-sweep.ts) every HISTORY_SWEEP_INTERVAL_MS. */
export function createHistorySweeper(deps: { sweep: HistorySweep; workerId: string; logger: Logger; intervalMs?: number }) {
  const intervalMs = deps.intervalMs ?? HISTORY_SWEEP_INTERVAL_MS;
  let timer: NodeJS.Timeout | undefined;
  const sweepOnce = async () => {
    const report = await deps.sweep.sweep(deps.workerId);
    if (report && report.removed > 0) deps.logger.info(report, 'swept expired runs out of the run history');
    return report;
  };
  const sweep = () => {
    sweepOnce().catch((error: unknown) => deps.logger.warn({ err: error }, 'run history sweep failed'));
  };
  return {
    sweepOnce,
    start() {
      timer = setInterval(sweep, intervalMs);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
