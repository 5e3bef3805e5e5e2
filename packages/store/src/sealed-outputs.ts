import type { SecretCipher } from './secret-cipher.ts';
import { openMap, resealMap, SEALED_ENTRY, sealMap, type SealedMapKind } from './sealed-entry.ts';

/**
 * Where a record's outputs keep those its Choreo declares secret: one sealed entry of the stored
 * outputs (field `output`, sealed-entry.ts), so that every script that writes the outputs —
 * checkpoint, suspension, end — keeps them sealed as they are, and the end event carries them
 * sealed. Bound to the execution, and apart from its sealed inputs, so that they open in no other
 * record and as nothing else.
 */
export const SEALED_OUTPUTS = SEALED_ENTRY;

/** Thrown where secret outputs would have to be kept in clear, or cannot be read, for want of the key. */
export class SecretOutputsKeyMissingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretOutputsKeyMissingError';
  }
}

const outputsOf = (executionId: string): SealedMapKind => ({
  context: `execution-outputs\0${executionId}`,
  keyMissing: (action) =>
    new SecretOutputsKeyMissingError(
      action === 'seal'
        ? 'this Choreo has secret outputs, and this worker has no SECRETS_KEY to seal them with'
        : 'this execution keeps secret outputs, and this process has no SECRETS_KEY to read them with',
    ),
});

/** The outputs as a record keeps them: those named in `secret` sealed together under SEALED_OUTPUTS; the others as they are. */
export function sealSecretOutputs(
  cipher: SecretCipher | undefined,
  executionId: string,
  outputs: Readonly<Record<string, string>>,
  secret: ReadonlySet<string>,
): Record<string, string> {
  return sealMap(cipher, outputs, (name) => secret.has(name), outputsOf(executionId));
}

/** Whether stored outputs keep sealed ones. */
export function hasSealedOutputs(outputs: Readonly<Record<string, string>>): boolean {
  return typeof outputs[SEALED_OUTPUTS] === 'string';
}

/** The stored outputs with the sealed ones opened in among them, as the Choreo made them. */
export function openSealedOutputs(cipher: SecretCipher | undefined, executionId: string, outputs: Readonly<Record<string, string>>): Record<string, string> {
  return openMap(cipher, outputs, outputsOf(executionId));
}

/**
 * The stored outputs with their sealed entry sealed again under the current key, when it was
 * sealed with a previous one; undefined when there is nothing to reseal.
 */
export function resealOutputs(cipher: SecretCipher, executionId: string, outputs: Readonly<Record<string, string>>): Record<string, string> | undefined {
  return resealMap(cipher, outputs, outputsOf(executionId).context);
}
