import type { SecretCipher } from './secret-cipher.ts';

/**
 * The inputs a run took from a preset, kept in its record sealed (field `sealed`), never in clear
 * beside its own: a preset's values are as secret in a run as in the preset. Bound to the
 * execution, so that they open in no other record.
 */
export function sealRunInputs(cipher: SecretCipher, executionId: string, inputs: Readonly<Record<string, string>>): string {
  return cipher.seal(JSON.stringify(inputs), `execution\0${executionId}`);
}

export function openRunInputs(cipher: SecretCipher, executionId: string, sealed: string): Record<string, string> {
  return JSON.parse(cipher.open(sealed, `execution\0${executionId}`)) as Record<string, string>;
}
