import type { ExecutionMetrics } from '@ces/observability';
import { executionEnded, type ExecutionStore } from '@ces/store';
import type { RunLauncher } from './run-launcher.ts';

/** Counts every run the launcher accepts, by Choreo; a run given again with its Idempotency-Key is not a new one. */
export function countStartedRuns(launcher: RunLauncher, metrics: ExecutionMetrics): RunLauncher {
  return {
    async launch(principal, entry, request, options) {
      const result = await launcher.launch(principal, entry, request, options);
      if (!result.replayed) metrics.started(result.record.choreo);
      return result;
    },
  };
}

/**
 * Counts the executions this process ends. In the API that is a queued run taken out of the queue
 * by termination; workers count the rest. Its Choreo and times are read back only when the end
 * applied, never its inputs or outputs.
 */
export function countEndedRuns(executions: ExecutionStore, metrics: ExecutionMetrics): ExecutionStore {
  return {
    ...executions,
    async end(id, request) {
      const result = await executions.end(id, request);
      if (result.outcome === 'ended') {
        const record = await executions.summary(id, { withOutputs: false }).catch(() => undefined);
        if (record) {
          metrics.ended(executionEnded(record, result.status, record.endtime));
        }
      }
      return result;
    },
  };
}
