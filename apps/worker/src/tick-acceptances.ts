import {
  type AcceptOptions,
  type AcceptResult,
  acceptThenQueue,
  createTurnBatcher,
  type ExecutionQueues,
  type ExecutionStore,
  type NewExecution,
} from '@ces/store';

/** Most runs accepted by one script call: one call holds Redis for a few milliseconds at most. */
const MOST_PER_CALL = 250;

export type TickAcceptances = (execution: NewExecution) => Promise<AcceptResult>;

/**
 * Accepts the runs of ticks composed in one turn of the event loop together: their records in one
 * call of accept-executions.lua, then their jobs in one bulk add (acceptThenQueue). The ticks of a
 * burst fall due together; one script call per batch costs Redis and the worker less than one per
 * run, and every record of the burst is written before any job. A run's answer comes with its
 * record: the cursor may move on while its job is being queued (a job lost with a dying process is
 * queued by the reconciler). A job carries the execution's id alone, never the accepted execution
 * as an instant run's may: what counts in a burst is how soon its runs start, and a job carrying
 * its execution costs the worker about twice as much to add.
 */
export function createTickAcceptances(
  deps: { executions: ExecutionStore; queues: ExecutionQueues },
  options: Pick<AcceptOptions, 'maxRunningPerAccount' | 'maxStoredBytesPerAccount'>,
): TickAcceptances {
  return createTurnBatcher((executions: NewExecution[]) => {
    const sent = acceptThenQueue(deps, executions, options);
    sent.queued.catch(() => {});
    return sent.accepted;
  }, MOST_PER_CALL);
}
