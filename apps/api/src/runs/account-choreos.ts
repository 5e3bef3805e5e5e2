import { createStepLibrary } from '@ces/steps';
import { type Catalogue, type ChoreoDocumentLimits, DEFAULT_CHOREO_DOCUMENT_LIMITS } from '@ces/catalogue';
import { createAccountChoreoStore, type AccountChoreoLimits, type KeySpace } from '@ces/store';
import type { Redis } from 'ioredis';
import { createChoreoLookup, type ChoreoLookup } from './choreo-lookup.ts';
import { createChoreoWrites, type ChoreoWrites } from './choreo-writes.ts';

/** Bounds on each account's Choreos: how many and how large together, and each document's. */
export interface AccountChoreosConfig {
  store: AccountChoreoLimits;
  document?: ChoreoDocumentLimits;
}

/** The account-aware lookup every route uses, and the writes of the account's own Choreos. */
export function createAccountChoreos(deps: { redis: Redis; keys: KeySpace; catalogue: Catalogue; config: AccountChoreosConfig }): {
  lookup: ChoreoLookup;
  writes: ChoreoWrites;
} {
  const store = createAccountChoreoStore({ redis: deps.redis, keys: deps.keys });
  // The catalogue's own step kinds: a document is judged as a file of the catalogue would be.
  const steps = createStepLibrary();
  const documentLimits = deps.config.document ?? DEFAULT_CHOREO_DOCUMENT_LIMITS;
  const lookup = createChoreoLookup({ catalogue: deps.catalogue, accountChoreos: store, steps, limits: documentLimits });
  return { lookup, writes: createChoreoWrites({ store, steps, documentLimits, limits: deps.config.store }) };
}
