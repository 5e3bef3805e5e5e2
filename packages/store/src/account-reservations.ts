import type { Redis } from 'ioredis';
import { type ExecutionStatus, isTerminal } from './execution-status.ts';
import { scoredIds } from './scored-ids.ts';
import { ScriptReply } from './script-replies.ts';
import { registerScripts } from './scripts.ts';
import { SHARD_REFRESH_MS, type Shard, type ShardLayout } from './shard-layout.ts';
import { slidingStoredBytes, storageWindow } from './storage-window.ts';
import { createTurnBatcher } from './turn-batches.ts';

/** A run reserved whose record no shard holds this long after is taken as never accepted. */
export const UNACCEPTED_RESERVATION_MS = 60_000;

/** How often one process reads through an account's reservations at its quota, at most. */
const PRUNE_INTERVAL_MS = 1_000;

/** A place among the executing whose run holds no lease this long after is taken as not held (suspended, handed back, its take lost). */
export const UNTAKEN_EXECUTING_MS = 30_000;

/** How long after a deployment first had a second shard its processes may still accept runs unreserved: each learns of it within SHARD_REFRESH_MS. */
export const UNRESERVED_AFTER_SHARDING_MS = 6 * SHARD_REFRESH_MS;

export type ReserveResult =
  /** `before`: reserved by an earlier call for the same run (reserve-runs.lua's ReservedBefore), which may have been accepted. */
  | { outcome: 'reserved'; before?: true }
  | { outcome: 'exists' }
  | { outcome: 'quota-exceeded' }
  | { outcome: 'budget-exceeded'; retryAfterSeconds: number }
  | { outcome: 'larger-than-budget' };

export interface RunReservation {
  id: string;
  account: string;
  starttime: number;
  /** The bytes its acceptance stores (what accept-record.lua counts). */
  size: number;
}

/**
 * An account's limits over every shard (QUEUE_SHARDS > 1), kept in the control slot: a run is
 * reserved there (reserve-runs.lua) before its shard accepts it with no limit of its own, and let go
 * once its shard ended it. A reservation a crash left behind (a run reserved and never accepted,
 * ended without its reservation let go, a descendant its parent's end terminated in the shard's
 * script) is found when the account reaches its quota: each reserved run's record is read on its
 * shard, and those ended (or never accepted) are let go before the quota is asked again.
 */
export interface AccountReservations {
  /**
   * Whether runs are reserved now: with more than one shard. A deployment of one shard keeps its
   * limits in its scripts, and switches here as it learns of a second (the reconciler reserves the
   * runs accepted before: reserveRunning).
   */
  inUse(): boolean;
  reserve(run: RunReservation, limits: { maxRunning: number; budget: number }): Promise<ReserveResult>;
  /** Lets a run's places go (running, executing): it ended (`storedBytes` its outputs, charged) or was refused (`refund` its size). */
  release(ids: string | readonly string[], account: string, bytes: { storedBytes?: number; refund?: number; now?: number }): Promise<void>;
  /** The bytes the account stored over the last retention period, over all shards (as ExecutionStore.storedBytes). */
  storedBytes(account: string, now?: number): Promise<number>;
  /** How many runs the account has reserved (with a quota: its RUNNING executions over all shards). */
  count(account: string): Promise<number>;
  /** The account's RUNNING executions over all shards, as each shard's set counts them. */
  countRunning(account: string): Promise<number>;
  /** Lets go of the account's reservations whose runs have ended or were never accepted: how many. */
  prune(account: string, now?: number): Promise<number>;
  /**
   * A place among the account's runs held by workers (MAX_EXECUTING_PER_ACCOUNT), over all shards:
   * false when the account holds its most. Members no longer held (ended, handed back, suspended:
   * no lease) are let go before it says so.
   */
  reserveExecuting(id: string, account: string, limit: number): Promise<boolean>;
  /** Lets a run's place among the executing go (its end). */
  releaseExecuting(id: string, account: string): Promise<void>;
  /** How many of the account's runs workers hold, as reserved. */
  countExecuting(account: string): Promise<number>;
  /**
   * Reserves the runs of a page of one shard's RUNNING ones (the reconciler's) that may have been
   * accepted without a reservation: started before the deployment had a second shard, or within
   * UNRESERVED_AFTER_SHARDING_MS after, while processes yet to learn of it accepted as before.
   */
  reserveEarly(shard: Shard, page: readonly { id: string; starttime: number }[]): Promise<void>;
}

export function createAccountReservations(deps: { redis: Redis; layout: ShardLayout; retentionSeconds: number }): AccountReservations {
  const { redis, layout, retentionSeconds } = deps;
  const keys = layout.control;
  const run = registerScripts(redis);

  // When each account was last pruned here: an account at its quota is read through at most once
  // a second, however many runs it asks for.
  const pruned = new Map<string, number>();

  /**
   * Lets go of the members of a set of reservations (execution id → when reserved) whose records,
   * each read on its own shard (`fields` of it), say they are held no more: how many.
   */
  async function letGoOfStale(
    key: string,
    fields: readonly string[],
    stale: (values: readonly (string | null)[], reservedAt: number) => boolean,
  ): Promise<number> {
    const members = scoredIds(await redis.zrange(key, '0', '-1', 'WITHSCORES'));
    if (members.length === 0) return 0;
    // Each record on its own shard: one command per run, no two runs' keys in one.
    const records = await Promise.all(members.map(({ id }) => redis.hmget(layout.shardOf(id).keys.execution(id), ...fields)));
    const gone = members.filter(({ score }, i) => stale(records[i] ?? [], score)).map(({ id }) => id);
    if (gone.length > 0) await redis.zrem(key, ...gone);
    return gone.length;
  }

  const prune = (account: string, now = Date.now()) =>
    letGoOfStale(keys.accountReservedRuns(account), ['status'], ([status], reservedAt) =>
      status === null || status === undefined ? now - reservedAt > UNACCEPTED_RESERVATION_MS : isTerminal(status as ExecutionStatus),
    );

  // What one turn of the event loop reserves and releases goes in one script call each: every run
  // costs the control slot's primary a share of a round trip, not one of its own.
  const templates = JSON.stringify({
    reserved_runs: keys.accountReservedRuns('\u0001'),
    reserved_executing: keys.accountReservedExecuting('\u0001'),
    stored_bytes: keys.accountStoredBytes('\u0001', '\u0002'),
  });
  const reserveOnce = createTurnBatcher(async (runs: { reservation: RunReservation; limits: { maxRunning: number; budget: number } }[]) => {
    const each = runs.map(({ reservation, limits }) => {
      const window = storageWindow(reservation.starttime, retentionSeconds);
      return JSON.stringify({
        id: reservation.id,
        account: reservation.account,
        starttime: String(reservation.starttime),
        max_running: limits.maxRunning,
        budget: limits.budget,
        size: reservation.size,
        window: window.index,
        window_ms: window.lengthMs,
        window_start: window.startMs,
      });
    });
    return (await run('reserveRuns', [keys.shards()], [templates, ...each])) as unknown[];
  });
  const releaseOnce = createTurnBatcher(async (releases: { account: string; ids: string[]; stored: number; refund: number; now: number }[]) => {
    const each = releases.map(({ now, ...release }) => {
      const window = storageWindow(now, retentionSeconds);
      return JSON.stringify({ ...release, window: window.index, window_ms: window.lengthMs });
    });
    await run('releaseRuns', [keys.shards()], [templates, ...each]);
    return releases.map(() => undefined);
  });

  return {
    inUse: () => layout.shards.length > 1,

    async reserveEarly(shard, page) {
      const since = layout.shardedSince;
      if (layout.shards.length < 2 || since === undefined) return;
      const early = page.filter((run) => run.starttime < since + UNRESERVED_AFTER_SHARDING_MS);
      if (early.length === 0) return;
      // A pipeline per slot: the shard's records, then the control slot's reservations.
      const reading = redis.pipeline();
      for (const run of early) reading.hget(shard.keys.execution(run.id), 'account');
      const accounts = ((await reading.exec()) ?? []).map(([error, account]) => {
        if (error) throw error;
        return account as string | null;
      });
      const reserving = redis.pipeline();
      early.forEach((run, i) => {
        const account = accounts[i];
        if (account) reserving.zadd(keys.accountReservedRuns(account), 'NX', run.starttime, run.id);
      });
      for (const [error] of (await reserving.exec()) ?? []) if (error) throw error;
    },

    async reserveExecuting(id, account, limit) {
      const key = keys.accountReservedExecuting(account);
      const now = Date.now();
      if ((await run('reserveExecuting', [key], [id, limit, now])) === ScriptReply.Done) return true;
      // Full: each member's record on its own shard says whether it is still held. One reserved
      // a moment ago has no lease yet (its take is on its way): only an older one without is let go.
      const released = await letGoOfStale(
        key,
        ['status', 'lease'],
        ([status, lease], reservedAt) => status !== 'RUNNING' || (!lease && now - reservedAt > UNTAKEN_EXECUTING_MS),
      );
      if (released === 0) return false;
      return (await run('reserveExecuting', [key], [id, limit, now])) === ScriptReply.Done;
    },

    async releaseExecuting(id, account) {
      await redis.zrem(keys.accountReservedExecuting(account), id);
    },

    countExecuting: (account) => redis.zcard(keys.accountReservedExecuting(account)),

    async reserve(reservation, limits) {
      let reply = await reserveOnce({ reservation, limits });
      if (reply === ScriptReply.QuotaExceeded) {
        const now = Date.now();
        if (now - (pruned.get(reservation.account) ?? 0) >= PRUNE_INTERVAL_MS) {
          if (pruned.size >= 10_000) pruned.clear();
          pruned.set(reservation.account, now);
          if ((await prune(reservation.account, now)) > 0) reply = await reserveOnce({ reservation, limits });
        }
      }
      if (reply === ScriptReply.Done) return { outcome: 'reserved' };
      if (reply === ScriptReply.ReservedBefore) return { outcome: 'reserved', before: true };
      if (reply === ScriptReply.IdExists) return { outcome: 'exists' };
      if (reply === ScriptReply.QuotaExceeded) return { outcome: 'quota-exceeded' };
      if (reply === ScriptReply.LargerThanBudget) return { outcome: 'larger-than-budget' };
      if (Array.isArray(reply) && reply[0] === ScriptReply.BudgetExceeded) return { outcome: 'budget-exceeded', retryAfterSeconds: Number(reply[1]) };
      throw new Error(`reserving a run answered ${JSON.stringify(reply)}`);
    },

    async release(released, account, { storedBytes = 0, refund = 0, now = Date.now() }) {
      // Its place among the executing goes with it (a run refused never had one); a refund comes off
      // the window the reservation was charged to, or not at all once it is past.
      await releaseOnce({ account, ids: typeof released === 'string' ? [released] : [...released], stored: storedBytes, refund, now });
    },

    async storedBytes(account, now = Date.now()) {
      const window = storageWindow(now, retentionSeconds);
      const [current, previous] = await redis.mget(keys.accountStoredBytes(account, window.index), keys.accountStoredBytes(account, window.index - 1));
      return Math.round(slidingStoredBytes(Number(current ?? 0), Number(previous ?? 0), window, now));
    },
    count: (account) => redis.zcard(keys.accountReservedRuns(account)),
    async countRunning(account) {
      const counts = await Promise.all(layout.shards.map((shard) => redis.scard(shard.keys.accountRunning(account))));
      return counts.reduce((sum, count) => sum + count, 0);
    },
    prune,
  };
}
