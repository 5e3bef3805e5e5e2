import type { ExecutionJobData, ExecutionStore } from '@ces/store';
import type { Queue } from 'bullmq';
import { ApiError } from '../errors/api-error.ts';

/**
 * Terminates an execution. The flag is set first, so whichever worker holds the run (or takes it
 * next) stops after its current step; then a run still waiting in the queue is taken out of it
 * and ended at once. BullMQ refuses to remove a job a worker holds, so the two never race.
 */
export async function terminateExecution(deps: { executions: ExecutionStore; queue: Queue<ExecutionJobData> }, id: string) {
  const status = await deps.executions.requestTermination(id);
  if (status === undefined) throw new ApiError('NOT_FOUND', 'No such execution.');
  if (status === 'TERMINATED_MANUALLY') return;
  if (status !== 'RUNNING') throw new ApiError('CONFLICT', `The execution has already ended with status ${status}.`);
  const removed = await deps.queue.remove(id);
  if (removed === 1) await deps.executions.finish(id, { status: 'TERMINATED_MANUALLY' });
}
