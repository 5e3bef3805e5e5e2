import { terminateExecution as terminate, type ExecutionQueues, type ExecutionStore } from '@ces/store';
import { ApiError } from '../errors/api-error.ts';

/**
 * Terminates an execution by the store's one termination rule (shared with the admin command
 * line), answering its refusals as API errors.
 */
export async function terminateExecution(deps: { executions: ExecutionStore; queues: ExecutionQueues }, id: string) {
  const outcome = await terminate(deps, id);
  if (outcome.kind === 'not-found') throw new ApiError('NOT_FOUND', 'No such execution.');
  if (outcome.kind === 'already-ended') throw new ApiError('CONFLICT', `The execution has already ended with status ${outcome.status}.`);
}
