import { type ChoreoDefinition, redriveProgress } from '@ces/language';
import type { RedriveSource, RedriveStart } from './execution-store.ts';
import { rebindSealedResults } from './sealed-results.ts';
import type { SecretCipher } from './secret-cipher.ts';

/**
 * Where the redrive `redriveId` of a failed run starts: the run's checkpoint and the entries of its
 * progress a redrive keeps (redriveProgress), its sealed results sealed again for the redrive.
 * `definition` is the one the run ran. Throws SecretResultsKeyMissingError when something is sealed
 * and there is no key to open it.
 */
export function redriveStart(
  cipher: SecretCipher | undefined,
  source: RedriveSource,
  definition: Pick<ChoreoDefinition, 'steps'>,
  redriveId: string,
): RedriveStart {
  const { record, progress } = source;
  const kept = rebindSealedResults(cipher, record.id, redriveId, record.results, redriveProgress(definition, progress));
  return { nextStep: record.nextStep, results: kept.results, entries: kept.entries };
}
