import { createHmac, randomBytes } from 'node:crypto';
import type { CallbackRequest } from '@ces/language';
import type { Redis } from 'ioredis';
import type { KeySpace } from './keys.ts';
import { registerScripts } from './scripts.ts';

export interface CallbackRegistration {
  id: string;
  /** The last path segment of the callback URL: unguessable, the only thing the URL carries. */
  token: string;
}

export interface CallbackTarget {
  account: string;
  id: string;
  forward: string;
  filter?: { name: string; value: string };
}

/** One account's callbacks (RegisterCallback, GetCallbackData). */
export interface AccountCallbackStore {
  register(options: { id?: string; forwardingUrl?: string; filter?: { name: string; value: string } }): Promise<CallbackRegistration>;
  /** The requests received, oldest first; [] when none (or the callback expired). */
  requests(id: string): Promise<CallbackRequest[]>;
  /** The token of the callback `id` (registered or not): its URL's last segment. */
  tokenOf(id: string): string;
}

export interface CallbackStore {
  forAccount(account: string): AccountCallbackStore;
  /** What a callback URL's token stands for; undefined when unknown or expired. */
  target(token: string): Promise<CallbackTarget | undefined>;
  /** Records a request; the forwarding URL ('' for none), or undefined when the callback is gone. */
  record(token: string, request: CallbackRequest): Promise<string | undefined>;
}

/** As the original documents: a callback URL expires ten minutes after it is registered. */
export const CALLBACK_TTL_SECONDS = 600;
/** The latest requests kept per callback. */
export const MAX_CALLBACK_REQUESTS = 20;
export const CALLBACK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The key callback URL tokens are made with, derived from SECRETS_KEY (never the key itself). */
export function callbackUrlKey(secretsKey: Buffer): Buffer {
  return createHmac('sha256', secretsKey).update('callback-url-tokens').digest();
}

/**
 * Callback URLs are `<public base>/callbacks/<token>` (callback-paths.ts), the token an HMAC of
 * the account and the callback's id under `urlKey`: unguessable, and the same for the same custom
 * id (a static URL, as the original offers), without a look-up table that could be enumerated.
 */
export function createCallbackStore(deps: { redis: Redis; keys: KeySpace; urlKey: Buffer; ttlSeconds?: number }): CallbackStore {
  const { redis, keys } = deps;
  const run = registerScripts(redis);
  const ttl = deps.ttlSeconds ?? CALLBACK_TTL_SECONDS;
  const tokenOf = (account: string, id: string) => createHmac('sha256', deps.urlKey).update(`callback\0${account}\0${id}`).digest('base64url');

  return {
    forAccount(account) {
      return {
        async register(options) {
          const id = options.id ?? randomBytes(16).toString('hex');
          if (!CALLBACK_ID.test(id)) throw new Error('a callback id is 1 to 128 letters, digits and . _ -, starting with a letter or digit');
          const token = tokenOf(account, id);
          const fields = [
            'account',
            account,
            'id',
            id,
            'forward',
            options.forwardingUrl ?? '',
            ...(options.filter ? ['filtername', options.filter.name, 'filtervalue', options.filter.value] : []),
          ];
          await redis
            .multi()
            .del(keys.callbackUrl(token))
            .hset(keys.callbackUrl(token), ...fields)
            .expire(keys.callbackUrl(token), ttl)
            .expire(keys.accountCallbackRequests(account, id), ttl)
            .exec();
          return { id, token };
        },
        tokenOf: (id) => tokenOf(account, id),
        async requests(id) {
          if (!CALLBACK_ID.test(id)) return [];
          return (await redis.lrange(keys.accountCallbackRequests(account, id), 0, -1)).map((json) => JSON.parse(json) as CallbackRequest);
        },
      };
    },

    async target(token) {
      if (!TOKEN.test(token)) return undefined;
      const [account, id, forward, filterName, filterValue] = await redis.hmget(
        keys.callbackUrl(token),
        'account',
        'id',
        'forward',
        'filtername',
        'filtervalue',
      );
      if (!account || !id) return undefined;
      return { account, id, forward: forward ?? '', ...(filterName ? { filter: { name: filterName, value: filterValue ?? '' } } : {}) };
    },

    async record(token, request) {
      if (!TOKEN.test(token)) return undefined;
      const reply = await run(
        'recordCallback',
        [keys.callbackUrl(token)],
        [JSON.stringify(request), MAX_CALLBACK_REQUESTS, ttl, keys.accountCallbackRequests('', '').slice(0, -1)],
      );
      return typeof reply === 'string' ? reply : undefined;
    },
  };
}
