import type { Queue } from 'bullmq';
import { enqueueExecution, type ExecutionJobData } from './execution-queue.ts';
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
