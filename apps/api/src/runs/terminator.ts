import { terminateExecution as terminate, type ExecutionJobData, type ExecutionStore } from '@ces/store';
import type { Queue } from 'bullmq';
import { ApiError } from '../errors/api-error.ts';

/**
 * Terminates an execution by the store's one termination rule (shared with the admin command
 * line), answering its refusals as API errors.
 */
export async function terminateExecution(deps: { executions: ExecutionStore; queue: Queue<ExecutionJobData> }, id: string) {
  const outcome = await terminate(deps, id);
  if (outcome.kind === 'not-found') throw new ApiError('NOT_FOUND', 'No such execution.');
  if (outcome.kind === 'already-ended') throw new ApiError('CONFLICT', `The execution has already ended with status ${outcome.status}.`);
}
