import { promoteJobs, type ExecutionQueues } from './execution-queue.ts';
import { isTerminal, type TerminalStatus } from './execution-status.ts';
import type { ExecutionStore } from './execution-store.ts';

export type TerminationOutcome =
  /** No such execution (or it expired). */
  | { kind: 'not-found' }
  /** No worker held it (queued, or waiting for its next take): TERMINATED_MANUALLY now. */
  | { kind: 'ended' }
  /** A worker holds it: it stops after its current step. */
  | { kind: 'requested' }
  /** Terminated before: nothing to do, and saying so twice is not an error. */
  | { kind: 'already-terminated' }
  /** It ended otherwise (SUCCESS, ERROR, TERMINATED_LIMIT): it cannot be terminated. */
  | { kind: 'already-ended'; status: TerminalStatus };

/**
 * The one termination rule, shared by the API, the admin command line and a parent stopping its
 * child. A child it ends makes its suspended parent due, and the parent's job is made due here.
 * The store ends a run no worker holds at once, in the same script that would otherwise flag it,
 * so that nothing can take it in between; a run a worker holds stops after its current step. The
 * job of a run ended here is then taken out of the queue: BullMQ refuses while a worker still
 * holds the job (one suspending the run, say), and a take of it finds the run ended.
 */
export async function terminateExecution(deps: { executions: ExecutionStore; queues: ExecutionQueues }, id: string): Promise<TerminationOutcome> {
  const request = await deps.executions.requestTermination(id);
  if (request === undefined) return { kind: 'not-found' };
  // A child ended here wakes its parent suspended while waiting for it.
  if (request.wokenParents !== undefined) await promoteJobs(deps.queues, request.wokenParents);
  const { status } = request;
  if (status === 'TERMINATED_MANUALLY') return { kind: 'already-terminated' };
  if (isTerminal(status)) return { kind: 'already-ended', status };
  if (!request.ended) return { kind: 'requested' };
  // The run has ended whatever happens to its job: a job left behind is dropped at its take.
  await deps.queues
    .of(id)
    .remove(id)
    .catch(() => 0);
  return { kind: 'ended' };
}
