import type { SecretCipher } from './secret-cipher.ts';
import { openMap, resealMap, SEALED_ENTRY, sealMap, type SealedMapKind } from './sealed-entry.ts';

/**
 * Where the results map of a record checkpointed by an earlier version keeps the step results that
 * may hold a secret (a token a step read, a child's secret outputs): one sealed entry of its
 * `results` (sealed-entry.ts: no step id can have its name, ids start with a letter or `_`). A
 * run's progress now keeps each such result sealed alone (sealProgressEntries), so that they are in
 * clear nowhere in Redis while the run goes on; the run drops its results at its end. Bound to the
 * execution, and apart from its sealed inputs and outputs, so that they open in no other record and
 * as nothing else.
 */
export const SEALED_RESULTS = SEALED_ENTRY;

const resultsContext = (executionId: string) => `execution-results\0${executionId}`;
// Bound to the entry's address too: a sealed entry moved to another address does not open there.
const entryContext = (executionId: string, address: string) => `execution-progress\0${executionId}\0${address}`;

/** An entry of a run's progress inside a block (or of a durable wait): its address and its value. */
export type StoredProgressEntry = readonly [string, unknown];

/** Thrown where secret step results would have to be kept in clear, or cannot be read, for want of the key. */
export class SecretResultsKeyMissingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretResultsKeyMissingError';
  }
}

const resultsOf = (executionId: string): SealedMapKind => ({
  context: resultsContext(executionId),
  keyMissing: (action) =>
    new SecretResultsKeyMissingError(
      action === 'seal'
        ? 'a step result of this run is secret, and this worker has no SECRETS_KEY to seal it with'
        : 'this run keeps secret step results, and this worker has no SECRETS_KEY to read them with',
    ),
});

/**
 * The results as a checkpoint of an earlier version kept them (the form the take and a redrive
 * still read): those of the steps `isSecret` names taken out and sealed together under
 * SEALED_RESULTS; the others as they are. Without a secret one among them, a copy.
 */
export function sealSecretResults(
  cipher: SecretCipher | undefined,
  executionId: string,
  results: Readonly<Record<string, unknown>>,
  isSecret: (stepId: string) => boolean,
): Record<string, unknown> {
  return sealMap(cipher, results, isSecret, resultsOf(executionId));
}

/** The stored results with the sealed ones opened in among them, as the steps made them. */
export function openSealedResults(cipher: SecretCipher | undefined, executionId: string, results: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return openMap(cipher, results, resultsOf(executionId));
}

/** Whether a stored entry's value is a sealed one: an object with the one key SEALED_RESULTS. */
function isSealedEntry(value: unknown): value is { [SEALED_RESULTS]: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === SEALED_RESULTS && typeof (value as Record<string, unknown>)[SEALED_RESULTS] === 'string';
}

/**
 * The entries as the progress keeps them: the value of each one `isSecret` names sealed alone, as
 * `{ "$sealed": … }`, bound to the execution and its address; the others as they are.
 */
export function sealProgressEntries(
  cipher: SecretCipher | undefined,
  executionId: string,
  entries: readonly StoredProgressEntry[],
  isSecret: (address: string) => boolean,
): StoredProgressEntry[] {
  return entries.map(([address, value]) => {
    if (!isSecret(address)) return [address, value];
    if (!cipher) throw resultsOf(executionId).keyMissing('seal');
    return [address, { [SEALED_RESULTS]: cipher.seal(JSON.stringify(value), entryContext(executionId, address)) }];
  });
}

/**
 * The stored entries with the sealed ones opened. Only an entry `isSecret` names is opened (the
 * same rule that sealed it): a step of another kind whose result merely looks sealed is left as
 * it is; a secret one stored in clear (by a worker from before such results were sealed) is read
 * as it is.
 */
export function openProgressEntries(
  cipher: SecretCipher | undefined,
  executionId: string,
  entries: Iterable<StoredProgressEntry>,
  isSecret: (address: string) => boolean,
): Map<string, unknown> {
  const opened = new Map<string, unknown>();
  for (const [address, value] of entries) {
    if (!isSecret(address) || !isSealedEntry(value)) {
      opened.set(address, value);
      continue;
    }
    if (!cipher) throw resultsOf(executionId).keyMissing('open');
    opened.set(address, JSON.parse(cipher.open(value[SEALED_RESULTS], entryContext(executionId, address))) as unknown);
  }
  return opened;
}

/**
 * The stored results with their sealed entry sealed again under the current key, when a previous
 * one sealed it; undefined when there is nothing to reseal.
 */
export function resealResults(cipher: SecretCipher, executionId: string, results: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  return resealMap(cipher, results, resultsContext(executionId));
}

/**
 * A stored entry's value sealed again under the current key, when a previous one sealed it;
 * undefined when there is nothing to reseal, or it only looks sealed (a step's own result).
 */
export function resealProgressEntry(cipher: SecretCipher, executionId: string, address: string, value: unknown): unknown {
  if (!isSealedEntry(value) || !cipher.sealedWithOldKey(value[SEALED_RESULTS])) return undefined;
  const context = entryContext(executionId, address);
  let plain: string;
  try {
    plain = cipher.open(value[SEALED_RESULTS], context);
  } catch {
    return undefined;
  }
  return { [SEALED_RESULTS]: cipher.seal(plain, context) };
}

/**
 * The results map a record of an earlier version keeps (ExecutionRecord `results`) as entries of a
 * progress (address → JSON): the clear ones as they are, the sealed ones opened under `fromId` and
 * each sealed as a progress entry of `toId` (which is `fromId` for the run itself).
 */
export function resultsAsEntries(
  cipher: SecretCipher | undefined,
  fromId: string,
  toId: string,
  results: Readonly<Record<string, unknown>>,
): [string, string][] {
  const entries: [string, string][] = [];
  for (const [id, value] of Object.entries(results)) if (id !== SEALED_RESULTS) entries.push([id, JSON.stringify(value)]);
  const sealed = results[SEALED_RESULTS];
  if (typeof sealed !== 'string') return entries;
  if (!cipher) throw resultsOf(fromId).keyMissing('open');
  const opened = JSON.parse(cipher.open(sealed, resultsContext(fromId))) as Record<string, unknown>;
  for (const [id, value] of Object.entries(opened)) {
    entries.push([id, JSON.stringify({ [SEALED_RESULTS]: cipher.seal(JSON.stringify(value), entryContext(toId, id)) })]);
  }
  return entries;
}

/**
 * What a redrive copies of the run it redrives, bound to the redrive instead: each sealed progress
 * entry (`entries` as stored, JSON), opened under the old execution and sealed again under the new
 * one, so that they are in clear nowhere in Redis. An entry that only looks sealed (a step's own
 * result that does not open) is copied as it is.
 */
export function rebindSealedEntries(
  cipher: SecretCipher | undefined,
  fromId: string,
  toId: string,
  entries: readonly (readonly [string, string])[],
): [string, string][] {
  return entries.map(([address, json]) => {
    if (!json.includes(SEALED_RESULTS)) return [address, json];
    const value = JSON.parse(json) as unknown;
    if (!isSealedEntry(value)) return [address, json];
    if (!cipher) throw resultsOf(fromId).keyMissing('open');
    let plain: string;
    try {
      plain = cipher.open(value[SEALED_RESULTS], entryContext(fromId, address));
    } catch {
      return [address, json];
    }
    return [address, JSON.stringify({ [SEALED_RESULTS]: cipher.seal(plain, entryContext(toId, address)) })];
  });
}
