import { type Catalogue, checkChoreoDocument, DEFAULT_CHOREO_DOCUMENT_LIMITS } from '@ces/catalogue';
import type { ChoreoDefinition, StepLibrary } from '@ces/language';
import type { AccountChoreoStore } from '@ces/store';

/** A Choreo a run may start as a child: its definition and the digest its snapshot is stored under. */
export interface ChildChoreo {
  id: string;
  definition: ChoreoDefinition;
  digest: string;
  /** Whether its runs may be handed to workers whole (an instant Choreo's job carries the run). */
  instant: boolean;
}

/**
 * Where a worker looks up the Choreo a `choreo.run` step names, as seen by the account the parent
 * runs for: undefined when there is no such Choreo, it is invalid, or the account may not run it.
 * The shipped Library is one source; an account's own Choreos are another, looked up the same way.
 */
export interface ChildChoreoLookup {
  find(account: string, id: string): Promise<ChildChoreo | undefined>;
}

/** The shipped catalogue: its valid entries, visible to every account. */
export function catalogueLookup(catalogue: Catalogue): ChildChoreoLookup {
  return {
    async find(_account, id) {
      const entry = catalogue.get(id);
      if (entry === undefined || !entry.valid) return undefined;
      return { id: entry.id, definition: entry.definition, digest: entry.digest, instant: entry.instant };
    },
  };
}

/**
 * The parent's account's own Choreos (PUT /choreos/<id>), checked as when they were written: a
 * child names them by id, and another account's Choreo of the same id is never found.
 */
export function accountChoreoLookup(store: AccountChoreoStore, steps: StepLibrary): ChildChoreoLookup {
  return {
    async find(account, id) {
      if (id.startsWith('/Library/')) return undefined;
      const stored = await store.get(account, id);
      if (stored === undefined) return undefined;
      const checked = checkChoreoDocument(id, stored.document, steps, DEFAULT_CHOREO_DOCUMENT_LIMITS);
      if (!checked.ok) return undefined;
      const { entry } = checked;
      return { id: entry.id, definition: entry.definition, digest: entry.digest, instant: entry.instant };
    },
  };
}

/** The first of several sources that knows the id. */
export function firstOfLookups(lookups: readonly ChildChoreoLookup[]): ChildChoreoLookup {
  return {
    async find(account, id) {
      for (const lookup of lookups) {
        const found = await lookup.find(account, id);
        if (found !== undefined) return found;
      }
      return undefined;
    },
  };
}
