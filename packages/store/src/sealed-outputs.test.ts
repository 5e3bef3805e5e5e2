import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretCipher } from './secret-cipher.ts';
import { hasSealedOutputs, openSealedOutputs, resealOutputs, SEALED_OUTPUTS, sealSecretOutputs, SecretOutputsKeyMissingError } from './sealed-outputs.ts';

describe('sealed outputs', () => {
  const cipher = createSecretCipher({ current: randomBytes(32) });
  const id = 'a'.repeat(32);
  const secret = new Set(['Token']);

  it('seals the secret outputs into one entry, keeps the others, and opens them back', () => {
    const stored = sealSecretOutputs(cipher, id, { Token: 't-123', Valid: 'true' }, secret);
    expect(Object.keys(stored).sort()).toEqual([SEALED_OUTPUTS, 'Valid']);
    expect(JSON.stringify(stored)).not.toContain('t-123');
    expect(hasSealedOutputs(stored)).toBe(true);
    expect(openSealedOutputs(cipher, id, stored)).toEqual({ Token: 't-123', Valid: 'true' });
  });

  it('leaves outputs without a secret one as they are, and needs no key for them', () => {
    expect(sealSecretOutputs(undefined, id, { Valid: 'true' }, secret)).toEqual({ Valid: 'true' });
    expect(openSealedOutputs(undefined, id, { Valid: 'true' })).toEqual({ Valid: 'true' });
  });

  it('refuses to keep a secret output in clear, or to read one, without a key', () => {
    expect(() => sealSecretOutputs(undefined, id, { Token: 't' }, secret)).toThrow(SecretOutputsKeyMissingError);
    const stored = sealSecretOutputs(cipher, id, { Token: 't' }, secret);
    expect(() => openSealedOutputs(undefined, id, stored)).toThrow(SecretOutputsKeyMissingError);
  });

  it('opens in no other execution', () => {
    const stored = sealSecretOutputs(cipher, id, { Token: 't' }, secret);
    expect(() => openSealedOutputs(cipher, 'b'.repeat(32), stored)).toThrow();
  });

  it('reseals only what an old key sealed', () => {
    const oldKey = randomBytes(32);
    const stored = sealSecretOutputs(createSecretCipher({ current: oldKey }), id, { Token: 't', Valid: 'true' }, secret);
    const rotating = createSecretCipher({ current: randomBytes(32), previous: [oldKey] });
    const renewed = resealOutputs(rotating, id, stored);
    expect(renewed?.Valid).toBe('true');
    expect(renewed?.[SEALED_OUTPUTS]).not.toBe(stored[SEALED_OUTPUTS]);
    expect(resealOutputs(rotating, id, renewed ?? {})).toBeUndefined();
    expect(openSealedOutputs(rotating, id, renewed ?? {})).toEqual({ Token: 't', Valid: 'true' });
  });
});
