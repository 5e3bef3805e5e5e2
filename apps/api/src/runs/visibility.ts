import { mayAccessChoreo, type Principal } from '@ces/accounts';
import type { Catalogue, CatalogueEntry } from '@ces/choreos';
import type { ExecutionRecord } from '@ces/store';

/** A Choreo the principal may not access does not exist for it. */
export function visibleChoreo(catalogue: Catalogue, principal: Principal, id: string): CatalogueEntry | undefined {
  const entry = catalogue.get(id);
  return entry && mayAccessChoreo(principal.choreos, entry.id) ? entry : undefined;
}

/** Executions are visible to credentials of their account that may access their Choreo. */
export function isExecutionVisible(principal: Principal, record: Pick<ExecutionRecord, 'account' | 'choreo'>): boolean {
  return record.account === principal.account && mayAccessChoreo(principal.choreos, record.choreo);
}

export const EXECUTION_ID = /^[0-9a-f]{32}$/;
