import { hasSealedOutputs, openSealedOutputs, type SecretCipher } from '@ces/store';
import { ApiError } from '../errors/api-error.ts';

/**
 * The outputs of a run as its caller gets them: those its Choreo declares secret are kept sealed
 * in its record (and in the end event), and opened only here, for the answer that carries them
 * (the run's own answer, `GET /choreo-executions/<id>?view=outputs`). Without the secrets key a
 * record that keeps sealed outputs is 503, as presets are, never its ciphertext.
 */
export function createSealedOutputsOpener(cipher?: SecretCipher) {
  return <T extends { id: string; output?: Record<string, string> }>(record: T): T => {
    if (record.output === undefined || !hasSealedOutputs(record.output)) return record;
    if (!cipher) throw new ApiError('SERVICE_UNAVAILABLE', "This run's secret outputs cannot be read: this service has no SECRETS_KEY.");
    return { ...record, output: openSealedOutputs(cipher, record.id, record.output) };
  };
}

export type SealedOutputsOpener = ReturnType<typeof createSealedOutputsOpener>;
