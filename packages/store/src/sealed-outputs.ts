import type { SecretCipher } from './secret-cipher.ts';

/**
 * Where a record's outputs keep those its Choreo declares secret: one sealed entry of the stored
 * outputs (field `output`) under a name no output can have (output names are identifiers), so that
 * every script that writes the outputs — checkpoint, suspension, end — keeps them sealed as they
 * are, and the end event carries them sealed. Bound to the execution, and apart from its sealed
 * inputs, so that they open in no other record and as nothing else.
 */
export const SEALED_OUTPUTS = '$sealed';

const context = (executionId: string) => `execution-outputs\0${executionId}`;

/** Thrown where secret outputs would have to be kept in clear, or cannot be read, for want of the key. */
export class SecretOutputsKeyMissingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretOutputsKeyMissingError';
  }
}

/**
 * The outputs as a record keeps them: those named in `secret` taken out and sealed together under
 * SEALED_OUTPUTS; the others as they are. Without a secret one among them, `outputs` itself.
 */
export function sealSecretOutputs(
  cipher: SecretCipher | undefined,
  executionId: string,
  outputs: Readonly<Record<string, string>>,
  secret: ReadonlySet<string>,
): Record<string, string> {
  const clear: Record<string, string> = {};
  const sealed: Record<string, string> = {};
  for (const [name, value] of Object.entries(outputs)) {
    if (name === SEALED_OUTPUTS) continue;
    if (secret.has(name)) sealed[name] = value;
    else clear[name] = value;
  }
  if (Object.keys(sealed).length === 0) return { ...outputs };
  if (!cipher) throw new SecretOutputsKeyMissingError('this Choreo has secret outputs, and this worker has no SECRETS_KEY to seal them with');
  return { ...clear, [SEALED_OUTPUTS]: cipher.seal(JSON.stringify(sealed), context(executionId)) };
}

/** Whether stored outputs keep sealed ones. */
export function hasSealedOutputs(outputs: Readonly<Record<string, string>>): boolean {
  return typeof outputs[SEALED_OUTPUTS] === 'string';
}

/** The stored outputs with the sealed ones opened in among them, as the Choreo made them. */
export function openSealedOutputs(cipher: SecretCipher | undefined, executionId: string, outputs: Readonly<Record<string, string>>): Record<string, string> {
  const sealed = outputs[SEALED_OUTPUTS];
  if (typeof sealed !== 'string') return { ...outputs };
  if (!cipher) throw new SecretOutputsKeyMissingError('this execution keeps secret outputs, and this process has no SECRETS_KEY to read them with');
  const { [SEALED_OUTPUTS]: _sealed, ...clear } = outputs;
  const opened = JSON.parse(cipher.open(sealed, context(executionId))) as Record<string, string>;
  return { ...clear, ...opened };
}

/**
 * The stored outputs with their sealed entry sealed again under the current key, when it was
 * sealed with a previous one; undefined when there is nothing to reseal.
 */
export function resealOutputs(cipher: SecretCipher, executionId: string, outputs: Readonly<Record<string, string>>): Record<string, string> | undefined {
  const sealed = outputs[SEALED_OUTPUTS];
  if (typeof sealed !== 'string' || !cipher.sealedWithOldKey(sealed)) return undefined;
  return { ...outputs, [SEALED_OUTPUTS]: cipher.seal(cipher.open(sealed, context(executionId)), context(executionId)) };
}
