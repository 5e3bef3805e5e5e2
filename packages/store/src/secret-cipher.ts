import { createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

/**
 * Encrypts the secret values the service keeps for accounts (preset values, stored tokens) with
 * AES-256-GCM before they reach Redis. A sealed value is `v1.<key id>.<iv>.<tag>.<ciphertext>`
 * (base64url parts); the key id (the first bytes of the key's SHA-256) tells which key sealed it,
 * so that after a rotation values sealed with the previous key are still read, and found by the
 * re-encryption command. Every value is bound to where it is kept (`context`, the additional
 * authenticated data: account, preset or token name, input name), so a value copied into another
 * account's key, or another input, does not open.
 */
export interface SecretCipher {
  seal(plain: string, context: string): string;
  /** Throws SecretUnreadableError when no key opens it or it was altered. */
  open(sealed: string, context: string): string;
  /** Whether a value was sealed with another key than the current one (to re-encrypt). */
  sealedWithOldKey(sealed: string): boolean;
  /**
   * A keyed digest of a value (HMAC-SHA256 under a key derived from the current one), to compare
   * secret values without keeping them, or a plain hash of them that a short one could be guessed
   * from.
   */
  fingerprint(plain: string): string;
}

/** A sealed value that no configured key opens, or that was altered; says nothing of the value. */
export class SecretUnreadableError extends Error {
  constructor(reason: string) {
    super(`a stored secret cannot be read: ${reason}`);
    this.name = 'SecretUnreadableError';
  }
}

export const SECRET_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

/** A new key in the form SECRETS_KEY takes (base64url, 43 characters). */
export function generateSecretKey(): string {
  return randomBytes(SECRET_KEY_BYTES).toString('base64url');
}

function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest().subarray(0, 6).toString('base64url');
}

/** `current` seals and opens; each of `previous` only opens (values sealed before a rotation). */
export function createSecretCipher(keys: { current: Buffer; previous?: readonly Buffer[] }): SecretCipher {
  const all = [keys.current, ...(keys.previous ?? [])];
  for (const key of all) if (key.length !== SECRET_KEY_BYTES) throw new Error(`a secrets key is ${SECRET_KEY_BYTES} bytes`);
  const byId = new Map<string, KeyObject>();
  for (const key of all) if (!byId.has(keyId(key))) byId.set(keyId(key), createSecretKey(key));
  const currentId = keyId(keys.current);
  const currentKey = byId.get(currentId) as KeyObject;
  const fingerprintKey = createSecretKey(createHmac('sha256', keys.current).update('fingerprints').digest());

  return {
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', currentKey, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, currentId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },

    open(sealed, context) {
      const [version, id, iv, tag, body, ...rest] = sealed.split('.');
      if (version !== VERSION || id === undefined || iv === undefined || tag === undefined || body === undefined || rest.length > 0) {
        throw new SecretUnreadableError('not a sealed value');
      }
      const key = byId.get(id);
      if (!key) throw new SecretUnreadableError('it was sealed with a key that is not configured (SECRETS_KEY, SECRETS_KEY_PREVIOUS)');
      const tagBytes = Buffer.from(tag, 'base64url');
      if (tagBytes.length !== TAG_BYTES) throw new SecretUnreadableError('not a sealed value');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(tagBytes);
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretUnreadableError('it was altered, or belongs elsewhere');
      }
    },

    sealedWithOldKey(sealed) {
      return sealed.split('.')[1] !== currentId;
    },

    fingerprint(plain) {
      return createHmac('sha256', fingerprintKey).update(plain, 'utf8').digest('base64url');
    },
  };
}
