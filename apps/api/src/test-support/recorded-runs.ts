import type { ExecutionStore, TerminalStatus } from '@ces/store';
import { newExecutionFixture } from '@ces/testing';

/**
 * Records runs straight in the store, each at its own start time from `base` on, and ends those
 * given a status: the run history's tests need runs of known times and ends without a worker.
 */
export async function recordRuns(
  executions: ExecutionStore,
  base: number,
  runs: readonly { account?: string; choreo: string; status?: TerminalStatus }[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const [index, run] of runs.entries()) {
    const execution = newExecutionFixture({ account: run.account ?? 'acme', choreo: run.choreo, starttime: base + index });
    const accepted = await executions.accept(execution, { maxRunningPerAccount: 0 });
    if (accepted.outcome !== 'accepted') throw new Error(`not accepted: ${accepted.outcome}`);
    if (run.status) await executions.end(execution.id, { status: run.status, ...(run.status === 'ERROR' ? { error: 'boom' } : {}) });
    ids.push(execution.id);
  }
  return ids;
}
