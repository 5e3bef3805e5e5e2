import type { Principal } from '@ces/accounts';
import type { ExecutionRecord } from '@ces/store';
import { ApiError } from '../errors/api-error.ts';
import { EXECUTION_ID, isExecutionVisible } from '../runs/visibility.ts';

/**
 * Whom the console shows a run: the credentials that may see it through the API, and operators,
 * who see every account's runs in the history as under `/ops`. Anything else is not there at all.
 */
export function mayViewRun(principal: Principal, record: Pick<ExecutionRecord, 'account' | 'choreo'> | undefined): boolean {
  if (!record) return false;
  return principal.kind === 'operator' || isExecutionVisible(principal, record);
}

/** Terminating is what `DELETE` does: an account's credentials only, for the runs they may see. */
export function mayTerminateRun(principal: Principal, record: Pick<ExecutionRecord, 'account' | 'choreo'>): boolean {
  return principal.kind !== 'operator' && isExecutionVisible(principal, record);
}

/** Redriving is what `POST …/redrive` does: an account's credentials only, for the runs they may see. */
export function mayRedriveRun(principal: Principal, record: Pick<ExecutionRecord, 'account' | 'choreo'>): boolean {
  return principal.kind !== 'operator' && isExecutionVisible(principal, record);
}

export function checkRunId(id: string): void {
  if (!EXECUTION_ID.test(id)) throw new ApiError('NOT_FOUND', 'No such run.');
}
