import type { KeySpace } from './keys.ts';

/**
 * The run history's key names as templates for history-index.lua: "\u0001" stands for the
 * account and "\u0002" for the status or Choreo, so the names stay built in keys.ts alone.
 */
export function historyKeyTemplates(keys: KeySpace) {
  return {
    all: keys.history(),
    accounts: keys.historyAccounts(),
    choreos: keys.accountHistoryChoreos('\u0001'),
    by_status: keys.accountHistoryByStatus('\u0001', '\u0002'),
    by_choreo: keys.accountHistoryByChoreo('\u0001', '\u0002'),
  };
}
