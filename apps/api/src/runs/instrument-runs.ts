import type { ExecutionMetrics } from '@ces/observability';
import { executionEnded, type ExecutionStore, type TerminalStatus } from '@ces/store';
import type { RunLauncher } from './run-launcher.ts';

/** Counts every run the launcher accepts (redrives too), by Choreo; a run given again with its Idempotency-Key is not a new one. */
export function countStartedRuns(launcher: RunLauncher, metrics: ExecutionMetrics): RunLauncher {
  return {
    async launch(principal, entry, request, options) {
      const result = await launcher.launch(principal, entry, request, options);
      if (!result.replayed) metrics.started(result.record.choreo);
      return result;
    },
    async redrive(principal, executionId, request, options) {
      const result = await launcher.redrive(principal, executionId, request, options);
      if (!result.replayed) metrics.started(result.record.choreo);
      return result;
    },
  };
}

/**
 * Counts the executions this process ends. In the API that is a run no worker held, ended by
 * termination; workers count the rest. Its Choreo and times are read back only when the end
 * applied, never its inputs or outputs.
 */
export function countEndedRuns(executions: ExecutionStore, metrics: ExecutionMetrics): ExecutionStore {
  async function count(id: string, status: TerminalStatus) {
    const record = await executions.summary(id, { withOutputs: false }).catch(() => undefined);
    if (record) metrics.ended(executionEnded(record, status, record.endtime));
  }
  return {
    ...executions,
    async end(id, request) {
      const result = await executions.end(id, request);
      if (result.outcome === 'ended') await count(id, result.status);
      return result;
    },
    async requestTermination(id) {
      const request = await executions.requestTermination(id);
      if (request?.ended) await count(id, 'TERMINATED_MANUALLY');
      return request;
    },
  };
}
