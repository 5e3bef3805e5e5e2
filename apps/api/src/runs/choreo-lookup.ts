import { mayAccessChoreo, type Principal } from '@ces/accounts';
import { type Catalogue, type CatalogueEntry, checkChoreoDocument, type ChoreoDocumentLimits } from '@ces/catalogue';
import type { StepLibrary } from '@ces/language';
import type { AccountChoreoStore } from '@ces/store';

/** The shared catalogue's ids: nobody writes under it through the API. */
export const LIBRARY_PREFIX = '/Library/';

export interface FoundChoreo {
  entry: CatalogueEntry;
  /** The version of an account's own Choreo; absent for the catalogue's. */
  version?: number;
}

/**
 * Where a principal's Choreos come from: the shared catalogue (files, loaded at start) and its
 * account's own (Redis). Every route that names a Choreo asks here, so that reading, listing and
 * running see the same ones.
 */
export interface ChoreoLookup {
  /** The Choreo the principal sees under `id`, or undefined: absent and forbidden look the same. */
  find(principal: Principal, id: string): Promise<FoundChoreo | undefined>;
  /** The ids the principal sees, each once, sorted. */
  ids(principal: Principal): Promise<string[]>;
  /** True for an id that belongs to the shared catalogue, which no account may write. */
  isShared(id: string): boolean;
}

/** Entries parsed from documents, by account, id and version (a version never names two documents). */
const PARSED_ENTRIES_KEPT = 1000;

export function createChoreoLookup(deps: {
  catalogue: Catalogue;
  accountChoreos: AccountChoreoStore;
  steps: StepLibrary;
  limits: ChoreoDocumentLimits;
}): ChoreoLookup {
  const { catalogue, accountChoreos } = deps;
  const parsed = new Map<string, CatalogueEntry>();

  function entryOf(account: string, id: string, version: number, document: string): CatalogueEntry {
    const key = `${account}\n${id}\n${version}`;
    const known = parsed.get(key);
    if (known) return known;
    const checked = checkChoreoDocument(id, document, deps.steps, deps.limits);
    // A document checked when written may fail a later, stricter check: it is kept, listed, not run.
    const entry: CatalogueEntry = checked.ok
      ? checked.entry
      : {
          id,
          file: '',
          valid: false,
          problems: checked.problems.map(({ pointer, message }) => (pointer ? `${pointer}: ${message}` : message)),
          description: '',
          timeLimitSeconds: undefined,
          inputs: {},
          outputs: {},
        };
    if (parsed.size >= PARSED_ENTRIES_KEPT) parsed.delete(parsed.keys().next().value ?? '');
    parsed.set(key, entry);
    return entry;
  }

  const isShared = (id: string) => id.startsWith(LIBRARY_PREFIX) || catalogue.get(id) !== undefined;

  return {
    isShared,
    async find(principal, id) {
      if (!mayAccessChoreo(principal.choreos, id)) return undefined;
      const shared = catalogue.get(id);
      if (shared) return { entry: shared };
      if (isShared(id)) return undefined;
      const stored = await accountChoreos.get(principal.account, id);
      if (!stored) return undefined;
      return { entry: entryOf(principal.account, id, stored.version, stored.document), version: stored.version };
    },
    async ids(principal) {
      const own = await accountChoreos.ids(principal.account);
      const all = new Set([...catalogue.list().map((entry) => entry.id), ...own.filter((id) => !isShared(id))]);
      return [...all].filter((id) => mayAccessChoreo(principal.choreos, id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    },
  };
}
