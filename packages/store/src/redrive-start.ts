import { type ChoreoDefinition, redriveProgress, resumePoint } from '@ces/language';
import type { RedriveStart } from './execution-acceptance.ts';
import type { RedriveSource } from './execution-store.ts';
import { rebindSealedEntries, resultsAsEntries } from './sealed-results.ts';
import type { SecretCipher } from './secret-cipher.ts';

/**
 * Where the redrive `redriveId` of a failed run starts: the run's progress as a take would resume
 * it (resumePoint: the results of its completed top-level steps, the entries of the one it failed
 * in), of that step's entries those a redrive keeps (redriveProgress), its sealed results sealed
 * again for the redrive. A run ended by an earlier version keeps its results in the record's
 * `results` map, read as entries of its progress. `definition` is the one the run ran. Throws
 * SecretResultsKeyMissingError when something is sealed and there is no key to open it.
 */
export function redriveStart(
  cipher: SecretCipher | undefined,
  source: RedriveSource,
  definition: Pick<ChoreoDefinition, 'steps'>,
  redriveId: string,
): RedriveStart {
  const { record, progress } = source;
  const log = [...resultsAsEntries(cipher, record.id, record.id, record.results), ...progress];
  const point = resumePoint(definition, log);
  const kept = [...Object.entries(point.results), ...redriveProgress(definition, point.progress)];
  return { nextStep: point.nextStep, entries: rebindSealedEntries(cipher, record.id, redriveId, kept) };
}
