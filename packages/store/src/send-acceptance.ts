import type { Queue } from 'bullmq';
import { EXECUTION_JOB_NAME, enqueueExecution, type ExecutionJobData } from './execution-queue.ts';
import type { NewExecution } from './execution-record.ts';
import type { AcceptOptions, AcceptResult, ExecutionStore } from './execution-store.ts';

/** The two writes of an acceptance, each answered on its own. */
export interface SentAcceptance {
  /** The accept script's answer; a refused record's job has been taken out of the queue again. */
  accepted: Promise<AcceptResult>;
  /** The job's answer. */
  queued: Promise<unknown>;
}

/**
 * Accepts an execution and queues its job, as every starter does (the API for a caller, a worker
 * for a child execution): both sent at once on the store's and the queue's one connection, so
 * Redis applies them in that order and a worker can never take a job whose record does not exist
 * yet. A job sent with a record that was refused (quota, stored bytes, an Idempotency-Key's
 * earlier run) is removed again; it would find nothing to run anyway. With `instant`, the job
 * carries the accepted execution.
 */
export function sendAcceptance(
  deps: { executions: ExecutionStore; queue: Queue<ExecutionJobData> },
  execution: NewExecution,
  options: AcceptOptions & { instant: boolean },
): SentAcceptance {
  const { instant, ...acceptOptions } = options;
  let queued: Promise<unknown> | undefined;
  const accepted = deps.executions.accept(execution, acceptOptions).then(async (result) => {
    if (result.outcome !== 'accepted' && result.outcome !== 'exists') await queued?.then(() => deps.queue.remove(execution.id)).catch(() => {});
    return result;
  });
  queued = enqueueExecution(deps.queue, execution.id, instant ? execution : undefined);
  return { accepted, queued };
}

/**
 * Accepts many plain executions and queues their jobs as `sendAcceptance` does one: the batch's
 * records in one script call and its jobs in one bulk add, sent at once and in that order.
 */
export function sendAcceptances(
  deps: { executions: ExecutionStore; queue: Queue<ExecutionJobData> },
  batch: readonly { execution: NewExecution; instant: boolean }[],
  options: Pick<AcceptOptions, 'maxRunningPerAccount' | 'maxStoredBytesPerAccount'>,
): { accepted: Promise<AcceptResult[]>; queued: Promise<unknown> } {
  let queued: Promise<unknown> | undefined;
  const accepted = deps.executions
    .acceptMany(
      batch.map(({ execution }) => execution),
      options,
    )
    .then(async (results) => {
      const refused = batch.filter((_, index) => {
        const outcome = results[index]?.outcome;
        return outcome !== 'accepted' && outcome !== 'exists';
      });
      if (refused.length > 0) await queued?.then(() => Promise.all(refused.map(({ execution }) => deps.queue.remove(execution.id)))).catch(() => {});
      return results;
    });
  queued = deps.queue.addBulk(
    batch.map(({ execution, instant }) => ({
      name: EXECUTION_JOB_NAME,
      data: instant ? { executionId: execution.id, accepted: execution } : { executionId: execution.id },
      opts: { jobId: execution.id },
    })),
  );
  return { accepted, queued };
}
