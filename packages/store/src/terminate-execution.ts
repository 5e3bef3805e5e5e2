import type { Queue } from 'bullmq';
import type { ExecutionJobData } from './execution-queue.ts';
import { isTerminal, type TerminalStatus } from './execution-status.ts';
import type { ExecutionStore } from './execution-store.ts';

export type TerminationOutcome =
  /** No such execution (or it expired). */
  | { kind: 'not-found' }
  /** It was waiting in the queue: taken out and TERMINATED_MANUALLY now. */
  | { kind: 'ended' }
  /** A worker holds it (or is taking it): it stops after its current step. */
  | { kind: 'requested' }
  /** Terminated before: nothing to do, and saying so twice is not an error. */
  | { kind: 'already-terminated' }
  /** It ended otherwise (SUCCESS, ERROR, TERMINATED_LIMIT): it cannot be terminated. */
  | { kind: 'already-ended'; status: TerminalStatus };

/**
 * The one termination rule, shared by the API and the admin command line. The flag is set first,
 * so whichever worker holds the run (or takes it next) stops after its current step; then a run
 * still waiting in the queue is taken out of it and ended at once. BullMQ refuses to remove a job
 * a worker holds, so the two never race.
 */
export async function terminateExecution(deps: { executions: ExecutionStore; queue: Queue<ExecutionJobData> }, id: string): Promise<TerminationOutcome> {
  const status = await deps.executions.requestTermination(id);
  if (status === undefined) return { kind: 'not-found' };
  if (status === 'TERMINATED_MANUALLY') return { kind: 'already-terminated' };
  if (isTerminal(status)) return { kind: 'already-ended', status };
  const removed = await deps.queue.remove(id);
  if (removed === 1) {
    await deps.executions.end(id, { status: 'TERMINATED_MANUALLY' });
    return { kind: 'ended' };
  }
  return { kind: 'requested' };
}
