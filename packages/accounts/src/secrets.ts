import { hash, randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords are stored as scrypt hashes, application keys as SHA-256 digests: a key is random
 * and long, so a fast digest is as safe as a slow hash for it and costs nothing per request.
 */

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

function scrypt(secret: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(secret, salt, keylen, options, (error, derived) => (error ? reject(error) : resolve(derived)));
  });
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltText, hashText] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hashText, 'base64url');
  const actual = await scrypt(password, Buffer.from(saltText, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function digestKey(key: string): string {
  // The one-shot hash: a Hash object per request cost more than the digest itself.
  return `sha256$${hash('sha256', key, 'hex')}`;
}

export function verifyKey(key: string, encoded: string): boolean {
  const actual = Buffer.from(digestKey(key));
  const expected = Buffer.from(encoded);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The shortest application key accepted; generated ones are 43 characters. */
export const MIN_KEY_LENGTH = 32;

/** A new application key: 32 random bytes, base64url (43 characters). */
export function generateKey(): string {
  return randomBytes(32).toString('base64url');
}

/** A password hash of no one, verified when a name is unknown so that both failures take as long. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return decoyHash;
}
