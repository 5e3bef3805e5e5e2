import { executionEnded, isTerminal, type ExecutionEndListener, type ExecutionRecord, type ExecutionStore } from '@ces/store';

/** Said on an execution whose job failed for good. */
export const JOB_FAILED_MESSAGE = 'The execution could not be run: the worker kept failing.';

/**
 * Ends as ERROR a RUNNING execution whose job failed for good (out of attempts, or stalled too
 * often): running it again would fail the same way, and it must not stay RUNNING. The worker that
 * sees the job fail and the reconciler that finds it later both end it here, so both count it.
 * Resolves true when this call ended it.
 */
export async function endFailedExecution(
  deps: {
    executions: ExecutionStore;
    onExecutionEnd?: ExecutionEndListener;
    /** Makes the delayed jobs of these runs due now: a child's parent its end made due (promoteJobs). */
    makeDue?: (executionIds: readonly string[]) => Promise<void>;
  },
  record: ExecutionRecord,
): Promise<boolean> {
  if (isTerminal(record.status)) return false;
  const result = await deps.executions.end(record.id, { status: 'ERROR', error: JOB_FAILED_MESSAGE, account: record.account });
  if (result.outcome === 'ended') {
    deps.onExecutionEnd?.(executionEnded(record, result.status));
    if (result.wokenParents !== undefined) await deps.makeDue?.(result.wokenParents);
  }
  return result.outcome === 'ended';
}
