import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretCipher, SecretUnreadableError } from './secret-cipher.ts';

describe('secret cipher', () => {
  const key = randomBytes(32);

  it('opens what it sealed, and the sealed form shows nothing of the value', () => {
    const cipher = createSecretCipher({ current: key });
    const sealed = cipher.seal('hunter2-token-value', 'preset\0acme\0p\0Key');
    expect(sealed).not.toContain('hunter2');
    expect(Buffer.from(sealed.split('.').slice(2).join(''), 'base64url').toString('latin1')).not.toContain('hunter2');
    expect(cipher.open(sealed, 'preset\0acme\0p\0Key')).toBe('hunter2-token-value');
    // A fresh IV each time: the same value never seals the same twice.
    expect(cipher.seal('hunter2-token-value', 'c')).not.toBe(cipher.seal('hunter2-token-value', 'c'));
  });

  it('refuses a value moved to another place, altered, or sealed with an unknown key, without showing it', () => {
    const cipher = createSecretCipher({ current: key });
    const sealed = cipher.seal('s3cret-value', 'token\0acme\0t');
    expect(() => cipher.open(sealed, 'token\0other\0t')).toThrow(SecretUnreadableError);
    const parts = sealed.split('.');
    const body = Buffer.from(parts[4] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    expect(() => cipher.open([...parts.slice(0, 4), body.toString('base64url')].join('.'), 'token\0acme\0t')).toThrow(SecretUnreadableError);
    expect(() => createSecretCipher({ current: randomBytes(32) }).open(sealed, 'token\0acme\0t')).toThrow(/not configured/);
    expect(() => cipher.open('plain text', 'x')).toThrow(SecretUnreadableError);
    try {
      createSecretCipher({ current: randomBytes(32) }).open(sealed, 'token\0acme\0t');
    } catch (error) {
      expect(String(error)).not.toContain('s3cret');
    }
  });

  it('reads values sealed with the previous key after a rotation, and tells which to seal again', () => {
    const old = createSecretCipher({ current: key });
    const sealed = old.seal('before-rotation', 'c');
    const rotated = createSecretCipher({ current: randomBytes(32), previous: [key] });
    expect(rotated.open(sealed, 'c')).toBe('before-rotation');
    expect(rotated.sealedWithOldKey(sealed)).toBe(true);
    expect(rotated.sealedWithOldKey(rotated.seal('after', 'c'))).toBe(false);
    expect(old.sealedWithOldKey(sealed)).toBe(false);
  });

  it('fingerprints a value under the key: the same value alike, another value or another key not', () => {
    const cipher = createSecretCipher({ current: key });
    expect(cipher.fingerprint('value')).toBe(createSecretCipher({ current: key }).fingerprint('value'));
    expect(cipher.fingerprint('value')).not.toBe(cipher.fingerprint('other'));
    expect(createSecretCipher({ current: randomBytes(32) }).fingerprint('value')).not.toBe(cipher.fingerprint('value'));
  });
});
