import type { Redis } from 'ioredis';
import type { ExecutionStatus } from './execution-status.ts';
import type { KeySpace } from './keys.ts';

/** One retained execution as the run history shows it. */
export interface HistoryEntry {
  id: string;
  account: string;
  choreo: string;
  status: ExecutionStatus;
  starttime: number;
  endtime?: number;
  host: string;
}

/** Where a page starts: after the entry with this start time and id (newest first). */
export interface HistoryCursor {
  starttime: number;
  id: string;
}

export interface HistoryQuery {
  /** One account's runs; absent: all accounts (operators). */
  account?: string;
  status?: ExecutionStatus;
  choreo?: string;
  /** Start times from (inclusive), epoch ms. */
  since?: number;
  /** Start times up to (inclusive), epoch ms. */
  until?: number;
  limit: number;
  cursor?: HistoryCursor;
  /** Entries it refuses are skipped without taking a place in the page (access rules). */
  include?: (entry: HistoryEntry) => boolean;
}

export interface HistoryPage {
  entries: HistoryEntry[];
  /** Present when older entries may follow. */
  next?: HistoryCursor;
}

export interface RunHistory {
  list(query: HistoryQuery): Promise<HistoryPage>;
}

const FIELDS = ['account', 'choreo', 'status', 'starttime', 'endtime', 'host'] as const;
const BATCH = 200;

/**
 * Reads the run history's indexes (history-index.lua) newest first. The most selective index the
 * query allows is read and the rest filtered on the records; ids whose record has expired are
 * skipped and taken out of the index read, so expired runs do not linger where they are read.
 */
export function createRunHistory(deps: { redis: Redis; keys: KeySpace }): RunHistory {
  const { redis, keys } = deps;

  function indexFor(query: HistoryQuery): string {
    if (query.account === undefined) return keys.history();
    if (query.choreo !== undefined) return keys.accountHistoryByChoreo(query.account, query.choreo);
    if (query.status !== undefined) return keys.accountHistoryByStatus(query.account, query.status);
    return keys.accountHistory(query.account);
  }

  function matches(query: HistoryQuery, entry: HistoryEntry): boolean {
    if (query.account !== undefined && entry.account !== query.account) return false;
    if (query.status !== undefined && entry.status !== query.status) return false;
    if (query.choreo !== undefined && entry.choreo !== query.choreo) return false;
    return query.include === undefined || query.include(entry);
  }

  return {
    async list(query) {
      const index = indexFor(query);
      const max = query.cursor ? Math.min(query.cursor.starttime, query.until ?? Number.POSITIVE_INFINITY) : query.until;
      const maxArg = max === undefined || max === Number.POSITIVE_INFINITY ? '+inf' : String(max);
      const minArg = query.since === undefined ? '-inf' : String(query.since);
      const entries: HistoryEntry[] = [];
      let offset = 0;
      for (;;) {
        const batch = await redis.zrevrangebyscore(index, maxArg, minArg, 'WITHSCORES', 'LIMIT', offset, BATCH);
        if (batch.length === 0) return { entries };
        offset += batch.length / 2;
        const ids: string[] = [];
        for (let i = 0; i < batch.length; i += 2) {
          const id = batch[i] as string;
          const score = Number(batch[i + 1]);
          // Ties on the cursor's start time come in descending id order: those up to it were shown.
          if (query.cursor && score === query.cursor.starttime && id >= query.cursor.id) continue;
          ids.push(id);
        }
        const pipeline = redis.pipeline();
        for (const id of ids) pipeline.hmget(keys.execution(id), ...FIELDS);
        const results = (await pipeline.exec()) ?? [];
        const expired: string[] = [];
        for (const [i, [error, values]] of results.entries()) {
          if (error) throw error;
          const id = ids[i] as string;
          const [account, choreo, status, starttime, endtime, host] = values as (string | null)[];
          if (!status || !account) {
            expired.push(id);
            continue;
          }
          const entry: HistoryEntry = {
            id,
            account,
            choreo: choreo ?? '',
            status: status as ExecutionStatus,
            starttime: Number(starttime),
            ...(endtime ? { endtime: Number(endtime) } : {}),
            host: host ?? '',
          };
          if (!matches(query, entry)) continue;
          entries.push(entry);
          if (entries.length === query.limit) {
            if (expired.length > 0) await redis.zrem(index, ...expired);
            return { entries, next: { starttime: entry.starttime, id: entry.id } };
          }
        }
        if (expired.length > 0) {
          await redis.zrem(index, ...expired);
          offset -= expired.length;
        }
      }
    },
  };
}
