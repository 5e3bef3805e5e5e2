import { mayAccessChoreo, type Principal } from '@ces/accounts';
import type { ExecutionRecord } from '@ces/store';

/** Executions are visible to credentials of their account that may access their Choreo. */
export function isExecutionVisible(principal: Principal, record: Pick<ExecutionRecord, 'account' | 'choreo'>): boolean {
  return record.account === principal.account && mayAccessChoreo(principal.choreos, record.choreo);
}

export const EXECUTION_ID = /^[0-9a-f]{32}$/;
