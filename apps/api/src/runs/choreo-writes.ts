import type { Principal } from '@ces/accounts';
import { checkChoreoDocument, type ChoreoDocumentLimits, type ValidCatalogueEntry } from '@ces/catalogue';
import type { DocumentProblem } from '@ces/language';
import type { StepLibrary } from '@ces/language';
import type { AccountChoreoLimits, AccountChoreoStore } from '@ces/store';
import { ApiError } from '../errors/api-error.ts';

export type PutOutcome = { ok: true; created: boolean; entry: ValidCatalogueEntry; version: number } | { ok: false; problems: DocumentProblem[] };

/** Writing an account's own Choreos: checked as the catalogue is, then stored within its bounds. */
export interface ChoreoWrites {
  readonly documentLimits: ChoreoDocumentLimits;
  /** Throws ApiError past a bound; answers the document's problems when it is not a Choreo. */
  put(principal: Principal, id: string, document: string): Promise<PutOutcome>;
  /** False when the account had no such Choreo. */
  delete(principal: Principal, id: string): Promise<boolean>;
}

/** Checks a document as the catalogue checks its files, then stores it within the account's bounds. */
export function createChoreoWrites(deps: {
  store: AccountChoreoStore;
  steps: StepLibrary;
  documentLimits: ChoreoDocumentLimits;
  limits: AccountChoreoLimits;
}): ChoreoWrites {
  const { store, limits } = deps;
  return {
    documentLimits: deps.documentLimits,
    async put(principal, id, document) {
      const checked = checkChoreoDocument(id, document, deps.steps, deps.documentLimits);
      if (!checked.ok) {
        if (checked.tooLarge) throw new ApiError('PAYLOAD_TOO_LARGE', `A Choreo document may have at most ${deps.documentLimits.maxBytes} bytes.`);
        return { ok: false, problems: checked.problems };
      }
      const written = await store.put(principal.account, id, document, limits);
      if (written.outcome === 'too-many') {
        throw new ApiError('TOO_MANY_REQUESTS', `This account already keeps ${written.count} Choreos, its limit: delete one to write another.`, {
          limit: 'account-choreos',
        });
      }
      if (written.outcome === 'too-many-bytes') {
        throw new ApiError('PAYLOAD_TOO_LARGE', `This account's Choreos would take ${written.bytes} bytes, more than the ${limits.maxBytes} it may keep.`, {
          limit: 'account-choreos',
        });
      }
      return { ok: true, created: written.outcome === 'created', entry: checked.entry, version: written.version };
    },
    delete(principal, id) {
      return store.delete(principal.account, id);
    },
  };
}
