import type { Redis } from 'ioredis';
import type { ExecutionStatus } from './execution-status.ts';
import type { ScheduledBy } from './execution-record.ts';
import type { KeySpace } from './keys.ts';
import { asShardLayout, type ShardLayout } from './shard-layout.ts';

/** One retained execution as the run history shows it. */
export interface HistoryEntry {
  id: string;
  account: string;
  choreo: string;
  status: ExecutionStatus;
  starttime: number;
  endtime?: number;
  host: string;
  /** The schedule's tick that started the run, if one did. */
  schedule?: ScheduledBy;
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

const FIELDS = ['account', 'choreo', 'status', 'starttime', 'endtime', 'host', 'schedule', 'tick'] as const;
const BATCH = 200;
const STATUSES: readonly ExecutionStatus[] = ['RUNNING', 'SUCCESS', 'ERROR', 'TERMINATED_MANUALLY', 'TERMINATED_LIMIT'];

/** One index entry as read: an execution id, its start time and the index it came from. */
interface IndexedRun {
  id: string;
  starttime: number;
  index: string;
}

/**
 * Reads the run history's indexes (history-index.lua) newest first. The most selective index the
 * query allows is read and the rest filtered on the records; an account's runs of any status are
 * the union of its status indexes, read side by side (there is no index of all of an account's
 * runs: it would cost every retained run one more entry). Ids whose record has expired are
 * skipped and taken out of the index read, so expired runs do not linger where they are read; the
 * history sweep (history-sweep.ts) takes them out of the indexes nobody reads.
 */
export function createRunHistory(deps: {
  redis: Redis;
  /** The key space of a deployment without shards, or the layout of every shard: each indexes its own runs, and a list merges them. */
  keys: KeySpace | ShardLayout;
}): RunHistory {
  const { redis } = deps;
  const layout = asShardLayout(deps.keys);
  /** The indexes a query reads, each with its shard, whose records its runs are. */
  function indexesFor(query: HistoryQuery): Map<string, KeySpace> {
    const shardOfIndex = new Map<string, KeySpace>();
    for (const { keys } of layout.shards) {
      const account = query.account;
      const indexes =
        account === undefined
          ? [keys.history()]
          : query.choreo !== undefined
            ? [keys.accountHistoryByChoreo(account, query.choreo)]
            : query.status !== undefined
              ? [keys.accountHistoryByStatus(account, query.status)]
              : STATUSES.map((status) => keys.accountHistoryByStatus(account, status));
      for (const index of indexes) shardOfIndex.set(index, keys);
    }
    return shardOfIndex;
  }

  function matches(query: HistoryQuery, entry: HistoryEntry): boolean {
    if (query.account !== undefined && entry.account !== query.account) return false;
    if (query.status !== undefined && entry.status !== query.status) return false;
    if (query.choreo !== undefined && entry.choreo !== query.choreo) return false;
    return query.include === undefined || query.include(entry);
  }

  return {
    async list(query) {
      const max = query.cursor ? Math.min(query.cursor.starttime, query.until ?? Number.POSITIVE_INFINITY) : query.until;
      const shardOfIndex = indexesFor(query);
      const walk = walkNewestFirst(redis, [...shardOfIndex.keys()], {
        max: max === undefined || max === Number.POSITIVE_INFINITY ? '+inf' : String(max),
        min: query.since === undefined ? '-inf' : String(query.since),
      });
      const entries: HistoryEntry[] = [];
      for (;;) {
        const batch = (await walk.next()).filter(
          // Ties on the cursor's start time come in descending id order: those up to it were shown.
          (run) => !(query.cursor && run.starttime === query.cursor.starttime && run.id >= query.cursor.id),
        );
        if (batch.length === 0) return { entries };
        const results = await recordsOf(batch, shardOfIndex);
        const expired: IndexedRun[] = [];
        for (const [i, [error, values]] of results.entries()) {
          if (error) throw error;
          const run = batch[i] as IndexedRun;
          const [account, choreo, status, starttime, endtime, host, schedule, tick] = values as (string | null)[];
          if (!status || !account) {
            expired.push(run);
            continue;
          }
          const entry: HistoryEntry = {
            id: run.id,
            account,
            choreo: choreo ?? '',
            status: status as ExecutionStatus,
            starttime: Number(starttime),
            ...(endtime ? { endtime: Number(endtime) } : {}),
            host: host ?? '',
            ...(schedule ? { schedule: { name: schedule, scheduledTime: Number(tick ?? 0) } } : {}),
          };
          if (!matches(query, entry)) continue;
          entries.push(entry);
          if (entries.length === query.limit) {
            await walk.remove(expired);
            return { entries, next: { starttime: entry.starttime, id: entry.id } };
          }
        }
        await walk.remove(expired);
      }
    },
  };

  /** The list fields of each run, read with a pipeline per shard (on a Cluster, one pipeline's keys share a slot). */
  async function recordsOf(batch: readonly IndexedRun[], shardOfIndex: ReadonlyMap<string, KeySpace>): Promise<[Error | null, unknown][]> {
    const byShard = new Map<KeySpace, number[]>();
    batch.forEach((run, i) => {
      const keys = shardOfIndex.get(run.index) as KeySpace;
      const positions = byShard.get(keys) ?? [];
      positions.push(i);
      byShard.set(keys, positions);
    });
    const results: [Error | null, unknown][] = new Array(batch.length);
    await Promise.all(
      [...byShard].map(async ([keys, positions]) => {
        const pipeline = redis.pipeline();
        for (const i of positions) pipeline.hmget(keys.execution((batch[i] as IndexedRun).id), ...FIELDS);
        const replies = (await pipeline.exec()) ?? [];
        positions.forEach((position, i) => {
          results[position] = replies[i] ?? [new Error('no reply'), null];
        });
      }),
    );
    return results;
  }
}

/**
 * Walks sorted sets of execution ids scored by start time as one, newest first (ties: greater id
 * first, as ZREVRANGEBYSCORE orders them), between `max` and `min`, a batch at a time.
 */
function walkNewestFirst(redis: Redis, indexes: string[], range: { max: string; min: string }) {
  const walks = indexes.map((index) => ({ index, offset: 0, buffer: [] as IndexedRun[], exhausted: false }));

  async function fill(walk: (typeof walks)[number]): Promise<void> {
    if (walk.buffer.length > 0 || walk.exhausted) return;
    const found = await redis.zrevrangebyscore(walk.index, range.max, range.min, 'WITHSCORES', 'LIMIT', walk.offset, BATCH);
    walk.offset += found.length / 2;
    if (found.length / 2 < BATCH) walk.exhausted = true;
    for (let i = 0; i < found.length; i += 2) walk.buffer.push({ id: found[i] as string, starttime: Number(found[i + 1]), index: walk.index });
  }

  const newer = (a: IndexedRun, b: IndexedRun) => a.starttime > b.starttime || (a.starttime === b.starttime && a.id > b.id);

  return {
    /** The next batch, empty when every index is read to its end. */
    async next(): Promise<IndexedRun[]> {
      const batch: IndexedRun[] = [];
      while (batch.length < BATCH) {
        // An index whose buffer ran dry may hold the next newest: its next batch is read first.
        const dry = walks.filter((walk) => walk.buffer.length === 0 && !walk.exhausted);
        if (dry.length > 0) await Promise.all(dry.map(fill));
        let newest: (typeof walks)[number] | undefined;
        for (const walk of walks) {
          const head = walk.buffer[0];
          if (head && (!newest || newer(head, newest.buffer[0] as IndexedRun))) newest = walk;
        }
        if (!newest) break;
        batch.push(newest.buffer.shift() as IndexedRun);
      }
      return batch;
    },
    /** Takes expired runs out of the indexes they were read from, keeping the walk's place. */
    async remove(runs: IndexedRun[]): Promise<void> {
      for (const walk of walks) {
        const ids = runs.filter((run) => run.index === walk.index).map((run) => run.id);
        if (ids.length === 0) continue;
        await redis.zrem(walk.index, ...ids);
        walk.offset -= ids.length;
      }
    },
  };
}
