import type { Catalogue, ChoreoDefinition } from '@ces/choreos';

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
