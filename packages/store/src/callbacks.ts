import { createHash } from 'node:crypto';

/** A call back URL's token: 32 random bytes, base64url. Anything else is refused unread. */
export const CALLBACK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Tokens are stored by digest: a read of Redis does not hand out live URLs. */
export function callbackTokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
