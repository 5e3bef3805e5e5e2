import { type AcceptOptions, type AcceptResult, type ExecutionJobData, type ExecutionStore, type NewExecution, sendAcceptances } from '@ces/store';
import type { Queue } from 'bullmq';

/** Most runs accepted by one script call: one call holds Redis for a few milliseconds at most. */
const MOST_PER_CALL = 250;

interface PendingAcceptance {
  execution: NewExecution;
  resolve: (result: AcceptResult) => void;
  reject: (error: unknown) => void;
}

export type TickAcceptances = (execution: NewExecution) => Promise<AcceptResult>;

/**
 * Accepts the runs of ticks composed in one turn of the event loop together: their records in one
 * call of accept-executions.lua and their jobs in one bulk add. The ticks of a burst fall due
 * together, and one script call and one bulk add per batch cost Redis and the worker about half
 * of one of each per run. A run's answer comes once its job is queued too (or failed to be: the
 * reconciler queues a recorded run's job). A job carries the execution's id alone, never the
 * accepted execution as an instant run's may: a burst's runs are started first and run after, so
 * what counts is how soon their jobs are queued, and a job carrying its execution costs the worker
 * about twice as much to add.
 */
export function createTickAcceptances(
  deps: { executions: ExecutionStore; queue: Queue<ExecutionJobData> },
  options: Pick<AcceptOptions, 'maxRunningPerAccount' | 'maxStoredBytesPerAccount'>,
): TickAcceptances {
  let pending: PendingAcceptance[] = [];
  const send = (batch: PendingAcceptance[]) => {
    const sent = sendAcceptances(
      deps,
      batch.map(({ execution }) => ({ execution, instant: false })),
      options,
    );
    const queued = sent.queued.catch(() => {});
    sent.accepted.then(
      async (results) => {
        await queued;
        batch.forEach((each, index) => {
          const result = results[index];
          if (result) each.resolve(result);
          else each.reject(new Error(`no answer for the run of ${each.execution.id}`));
        });
      },
      (error: unknown) => {
        for (const each of batch) each.reject(error);
      },
    );
  };
  const flush = () => {
    const all = pending;
    pending = [];
    for (let start = 0; start < all.length; start += MOST_PER_CALL) send(all.slice(start, start + MOST_PER_CALL));
  };
  return (execution) =>
    new Promise((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ execution, resolve, reject });
    });
}
