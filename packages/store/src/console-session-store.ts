import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { KeySpace } from './keys.ts';

/** Who a console session speaks for, and what it must still match to be valid. */
export interface ConsoleSessionIdentity {
  kind: 'user' | 'app' | 'operator';
  /** The account; '' for an operator. */
  account: string;
  name: string;
  /**
   * A digest of the credential as stored when the session began: a credential removed or given a
   * new secret no longer matches it, and the session stops verifying.
   */
  credential: string;
}

export interface ConsoleSession extends ConsoleSessionIdentity {
  /** The token every form that changes something must carry. */
  csrf: string;
  /** Epoch ms. */
  expires: number;
}

export interface ConsoleSessionStore {
  /** A new session; `token` goes to the cookie, and only its digest is kept. */
  create(identity: ConsoleSessionIdentity, lifetimeMs: number): Promise<{ token: string; session: ConsoleSession }>;
  get(token: string): Promise<ConsoleSession | undefined>;
  revoke(token: string): Promise<void>;
}

const tokenDigest = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Console sessions in Redis, each under the digest of its token: what Redis holds cannot be
 * presented as a cookie. A session expires with its key.
 */
export function createConsoleSessionStore(deps: { redis: Redis; keys: KeySpace; now?: () => number }): ConsoleSessionStore {
  const { redis, keys } = deps;
  const now = deps.now ?? Date.now;
  const keyOf = (token: string) => keys.consoleSession(tokenDigest(token));
  return {
    async create(identity, lifetimeMs) {
      const token = randomBytes(32).toString('base64url');
      const session: ConsoleSession = { ...identity, csrf: randomBytes(32).toString('base64url'), expires: now() + lifetimeMs };
      const key = keyOf(token);
      await redis
        .multi()
        .hset(key, { ...session, expires: String(session.expires) })
        .pexpire(key, lifetimeMs)
        .exec();
      return { token, session };
    },

    async get(token) {
      const fields = await redis.hgetall(keyOf(token));
      const expires = Number(fields.expires);
      if (!fields.csrf || !(expires > now())) return undefined;
      const kind = fields.kind;
      if (kind !== 'user' && kind !== 'app' && kind !== 'operator') return undefined;
      return { kind, account: fields.account ?? '', name: fields.name ?? '', credential: fields.credential ?? '', csrf: fields.csrf, expires };
    },

    async revoke(token) {
      await redis.del(keyOf(token));
    },
  };
}
