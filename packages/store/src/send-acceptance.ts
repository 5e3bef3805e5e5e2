import { EXECUTION_JOB_NAME, enqueueExecution, type ExecutionQueues } from './execution-queue.ts';
import type { NewExecution } from './execution-record.ts';
import type { AcceptOptions, AcceptResult } from './execution-acceptance.ts';
import type { ExecutionStore } from './execution-store.ts';

/** The two writes of an acceptance, each answered on its own. */
export interface SentAcceptance {
  /** The accept script's answer; a refused record's job has been taken out of the queue again. */
  accepted: Promise<AcceptResult>;
  /** The job's answer. */
  queued: Promise<unknown>;
}

/**
 * Accepts an execution and queues its job, as every starter does (the API for a caller, a worker
 * for a child execution): the job sent right after the record on the store's and the queue's one
 * connection, so Redis applies them in that order and a worker can never take a job whose record
 * does not exist yet. A job sent with a record that was refused (quota, stored bytes, an Idempotency-Key's
 * earlier run) is removed again; it would find nothing to run anyway. With `instant`, the job
 * carries the accepted execution.
 */
export function sendAcceptance(
  deps: { executions: ExecutionStore; queues: ExecutionQueues },
  execution: NewExecution,
  options: AcceptOptions & { instant: boolean },
): SentAcceptance {
  const { instant, ...acceptOptions } = options;
  const queue = deps.queues.of(execution.id);
  // The job is sent right after the record, on the same connection: with shards, once the
  // account's reservation is made (account-reservations.ts), which is why the store sends it.
  let settle: (job: Promise<unknown>) => void = () => {};
  const queued = new Promise<unknown>((resolve) => {
    settle = resolve;
  });
  let sent = false;
  const accepted = deps.executions
    .accept(execution, {
      ...acceptOptions,
      afterRecordSent: () => {
        sent = true;
        settle(enqueueExecution(queue, execution.id, instant ? execution : undefined));
      },
    })
    .then(
      async (result) => {
        // Refused before its record was sent (the account's limits, with shards): no job either.
        if (!sent) settle(Promise.resolve(undefined));
        else if (result.outcome !== 'accepted' && result.outcome !== 'exists') await queued.then(() => queue.remove(execution.id)).catch(() => {});
        return result;
      },
      (error: unknown) => {
        if (!sent) settle(Promise.resolve(undefined));
        throw error;
      },
    );
  return { accepted, queued };
}

/**
 * Accepts many plain executions in one script call, then queues the jobs of those accepted (or
 * found accepted already) in one bulk add, sent once the records' answer has come: a burst's
 * acceptances, sent together, are all applied before any of its jobs, which no worker takes during
 * the burst anyway. A job still never comes before its record; a process dying between the two
 * leaves a record whose job the reconciler queues.
 */
export function acceptThenQueue(
  deps: { executions: ExecutionStore; queues: ExecutionQueues },
  executions: readonly NewExecution[],
  options: Pick<AcceptOptions, 'maxRunningPerAccount' | 'maxStoredBytesPerAccount'>,
): { accepted: Promise<AcceptResult[]>; queued: Promise<unknown> } {
  const accepted = deps.executions.acceptMany(executions, options);
  const queued = accepted.then((results) => {
    const recorded = executions.filter((_, index) => {
      const outcome = results[index]?.outcome;
      return outcome === 'accepted' || outcome === 'exists';
    });
    // One bulk add per shard's queue.
    const byQueue = new Map<ReturnType<ExecutionQueues['of']>, NewExecution[]>();
    for (const execution of recorded) {
      const queue = deps.queues.of(execution.id);
      byQueue.set(queue, [...(byQueue.get(queue) ?? []), execution]);
    }
    return Promise.all(
      [...byQueue].map(([queue, jobs]) =>
        queue.addBulk(jobs.map((execution) => ({ name: EXECUTION_JOB_NAME, data: { executionId: execution.id }, opts: { jobId: execution.id } }))),
      ),
    );
  });
  return { accepted, queued };
}
