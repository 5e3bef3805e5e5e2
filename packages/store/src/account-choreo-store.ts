import type { Redis } from 'ioredis';
import type { KeySpace } from './keys.ts';
import { registerScripts } from './scripts.ts';

/** One of an account's own Choreos as stored: the document as it was sent, and its version. */
export interface StoredChoreo {
  id: string;
  /** 1 for the first write of the id, one more for every write after it, even after a delete. */
  version: number;
  /** Epoch milliseconds of the write. */
  updated: number;
  document: string;
}

export interface AccountChoreoLimits {
  /** Most Choreos one account keeps (0: no limit). */
  maxCount: number;
  /** Most bytes one account's Choreos take together, as stored (0: no limit). */
  maxBytes: number;
}

export type PutChoreoResult =
  | { outcome: 'created' | 'replaced'; version: number }
  | { outcome: 'too-many'; count: number }
  | { outcome: 'too-many-bytes'; bytes: number };

/**
 * The Choreos accounts write through the API, kept in Redis per account (the shipped catalogue
 * stays files). Documents are kept as sent and checked before they are written: the store judges
 * only the account's bounds.
 */
export interface AccountChoreoStore {
  put(account: string, id: string, document: string, limits: AccountChoreoLimits): Promise<PutChoreoResult>;
  get(account: string, id: string): Promise<StoredChoreo | undefined>;
  /** The ids of the account's Choreos, sorted. */
  ids(account: string): Promise<string[]>;
  /** Every Choreo of the account, sorted by id: for export. */
  all(account: string): Promise<StoredChoreo[]>;
  /** False when the account had no such Choreo. */
  delete(account: string, id: string): Promise<boolean>;
}

export function createAccountChoreoStore(deps: { redis: Redis; keys: KeySpace; now?: () => number }): AccountChoreoStore {
  const { redis, keys } = deps;
  const now = deps.now ?? Date.now;
  const run = registerScripts(redis);
  const decode = (id: string, json: string): StoredChoreo => {
    const { version, updated, document } = JSON.parse(json) as Omit<StoredChoreo, 'id'>;
    return { id, version, updated, document };
  };
  return {
    async put(account, id, document, limits) {
      const [outcome, value] = (await run(
        'putAccountChoreo',
        [keys.accountChoreos(account), keys.accountChoreoVersions(account)],
        [id, document, now(), limits.maxCount, limits.maxBytes],
      )) as [PutChoreoResult['outcome'], number];
      if (outcome === 'too-many') return { outcome, count: value };
      if (outcome === 'too-many-bytes') return { outcome, bytes: value };
      return { outcome, version: value };
    },
    async get(account, id) {
      const json = await redis.hget(keys.accountChoreos(account), id);
      return json === null ? undefined : decode(id, json);
    },
    async ids(account) {
      return (await redis.hkeys(keys.accountChoreos(account))).sort(byId);
    },
    async all(account) {
      const entries = Object.entries(await redis.hgetall(keys.accountChoreos(account)));
      return entries.map(([id, json]) => decode(id, json)).sort((a, b) => byId(a.id, b.id));
    },
    async delete(account, id) {
      return (await redis.hdel(keys.accountChoreos(account), id)) === 1;
    },
  };
}

function byId(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
