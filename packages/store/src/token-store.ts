import type { AccountTokens } from '@ces/language';
import type { Redis } from 'ioredis';
import type { KeySpace } from './keys.ts';
import { registerScripts } from './scripts.ts';
import type { SecretCipher } from './secret-cipher.ts';

export interface TokenStore {
  forAccount(account: string): AccountTokens;
  /** Seals again under the current key every token value of an account sealed with a previous one. */
  reseal(account: string): Promise<number>;
}

/** How long a token's lock lasts when it is not released by storing the token again or deleting it. */
export const TOKEN_LOCK_MS = 60_000;

/** A token value is bound to its account and name: copied to another key, it does not open. */
export function tokenValueContext(account: string, name: string): string {
  return `token\0${account}\0${name}`;
}

export function createTokenStore(deps: { redis: Redis; keys: KeySpace; cipher: SecretCipher; lockMs?: number; now?: () => number }): TokenStore {
  const { redis, keys, cipher } = deps;
  const run = registerScripts(redis);
  const lockMs = deps.lockMs ?? TOKEN_LOCK_MS;
  const now = deps.now ?? Date.now;

  function forAccount(account: string): AccountTokens {
    const key = (name: string) => keys.accountToken(account, name);
    const open = (name: string, sealed: string) => cipher.open(sealed, tokenValueContext(account, name));
    return {
      async store(name, value, lifetimeSeconds) {
        await run(
          'storeToken',
          [key(name), keys.accountTokenNames(account)],
          [name, cipher.seal(value, tokenValueContext(account, name)), Math.round(lifetimeSeconds * 1000), now()],
        );
      },

      async get(name) {
        // One command: value, validity and lock are read as of one instant.
        const [value, valid, lock] = await redis.hmget(key(name), 'value', 'valid', 'lock');
        if (value === null || value === undefined) return undefined;
        return { value: open(name, value), valid: valid === '1', locked: Number(lock ?? 0) > now() };
      },

      async lock(name) {
        const reply = (await run('lockToken', [key(name)], [now(), lockMs])) as [number, string?, string?];
        if (reply[0] === 0) return { outcome: 'absent' };
        if (reply[0] === -1) return { outcome: 'held' };
        return { outcome: 'taken', token: { value: open(name, reply[1] ?? ''), valid: reply[2] === '1', locked: true } };
      },

      async setValid(name, valid) {
        return (await run('setTokenValidity', [key(name)], [valid ? '1' : '0'])) === 1;
      },

      async delete(name) {
        return (await run('deleteToken', [key(name), keys.accountTokenNames(account)], [name])) === 1;
      },
    };
  }

  return {
    forAccount,
    async reseal(account) {
      let resealed = 0;
      for (const name of await redis.smembers(keys.accountTokenNames(account))) {
        const sealed = await redis.hget(keys.accountToken(account, name), 'value');
        // An expired token leaves its name behind; it is not removed here, where it could race a
        // token stored again under that name.
        if (sealed === null || !cipher.sealedWithOldKey(sealed)) continue;
        const context = tokenValueContext(account, name);
        const renewed = cipher.seal(cipher.open(sealed, context), context);
        resealed += Number(await run('resealField', [keys.accountToken(account, name)], ['value', sealed, renewed]));
      }
      return resealed;
    },
  };
}
