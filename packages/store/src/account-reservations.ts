import type { Redis } from 'ioredis';
import { type ExecutionStatus, isTerminal } from './execution-status.ts';
import { ScriptReply } from './script-replies.ts';
import { registerScripts } from './scripts.ts';
import type { ShardLayout } from './shard-layout.ts';
import { slidingStoredBytes, storageWindow } from './storage-window.ts';

/** A run reserved whose record no shard holds this long after is taken as never accepted. */
export const UNACCEPTED_RESERVATION_MS = 60_000;

export type ReserveResult =
  | { outcome: 'reserved' }
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
 * reserved there (reserve-run.lua) before its shard accepts it with no limit of its own, and let go
 * once its shard ended it. A reservation a crash left behind (a run reserved and never accepted,
 * ended without its reservation let go, a descendant its parent's end terminated in the shard's
 * script) is found when the account reaches its quota: each reserved run's record is read on its
 * shard, and those ended (or never accepted) are let go before the quota is asked again.
 */
export interface AccountReservations {
  reserve(run: RunReservation, limits: { maxRunning: number; budget: number }): Promise<ReserveResult>;
  /** Lets a run's place go: it ended (`storedBytes` its outputs, charged) or was refused (`refund` its size). */
  release(id: string, account: string, bytes: { storedBytes?: number; refund?: number; now?: number }): Promise<void>;
  /** The bytes the account stored over the last retention period, over all shards (as ExecutionStore.storedBytes). */
  storedBytes(account: string, now?: number): Promise<number>;
  /** How many runs the account has reserved (its RUNNING executions over all shards). */
  count(account: string): Promise<number>;
  /** Lets go of the account's reservations whose runs have ended or were never accepted: how many. */
  prune(account: string, now?: number): Promise<number>;
}

export function createAccountReservations(deps: { redis: Redis; layout: ShardLayout; retentionSeconds: number }): AccountReservations {
  const { redis, layout, retentionSeconds } = deps;
  const keys = layout.control;
  const run = registerScripts(redis);

  async function prune(account: string, now = Date.now()): Promise<number> {
    const flat = await redis.zrange(keys.accountReservedRuns(account), '0', '-1', 'WITHSCORES');
    const reserved: { id: string; at: number }[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) reserved.push({ id: flat[i] as string, at: Number(flat[i + 1]) });
    if (reserved.length === 0) return 0;
    // Each record on its own shard: one command per run, no two runs' keys in one.
    const statuses = await Promise.all(reserved.map(({ id }) => redis.hget(layout.shardOf(id).keys.execution(id), 'status')));
    const gone = reserved
      .filter(({ at }, i) => {
        const status = statuses[i];
        if (status === null || status === undefined) return now - at > UNACCEPTED_RESERVATION_MS;
        return isTerminal(status as ExecutionStatus);
      })
      .map(({ id }) => id);
    if (gone.length > 0) await redis.zrem(keys.accountReservedRuns(account), ...gone);
    return gone.length;
  }

  const reserveOnce = async (reservation: RunReservation, limits: { maxRunning: number; budget: number }) => {
    const window = storageWindow(reservation.starttime, retentionSeconds);
    return run(
      'reserveRun',
      [
        keys.accountReservedRuns(reservation.account),
        keys.accountStoredBytes(reservation.account, window.index),
        keys.accountStoredBytes(reservation.account, window.index - 1),
      ],
      [
        JSON.stringify({
          id: reservation.id,
          starttime: String(reservation.starttime),
          max_running: limits.maxRunning,
          budget: limits.budget,
          size: reservation.size,
          window_ms: window.lengthMs,
          window_start: window.startMs,
        }),
      ],
    );
  };

  return {
    async reserve(reservation, limits) {
      let reply = await reserveOnce(reservation, limits);
      if (reply === ScriptReply.QuotaExceeded && (await prune(reservation.account)) > 0) reply = await reserveOnce(reservation, limits);
      if (reply === ScriptReply.Done) return { outcome: 'reserved' };
      if (reply === ScriptReply.IdExists) return { outcome: 'exists' };
      if (reply === ScriptReply.QuotaExceeded) return { outcome: 'quota-exceeded' };
      if (reply === ScriptReply.LargerThanBudget) return { outcome: 'larger-than-budget' };
      if (Array.isArray(reply) && reply[0] === ScriptReply.BudgetExceeded) return { outcome: 'budget-exceeded', retryAfterSeconds: Number(reply[1]) };
      throw new Error(`reserving a run answered ${JSON.stringify(reply)}`);
    },

    async release(id, account, { storedBytes = 0, refund = 0, now = Date.now() }) {
      const multi = redis.multi().zrem(keys.accountReservedRuns(account), id);
      const window = storageWindow(now, retentionSeconds);
      if (storedBytes > 0) multi.incrby(keys.accountStoredBytes(account, window.index), storedBytes);
      await multi.exec();
      if (storedBytes > 0) await redis.pexpire(keys.accountStoredBytes(account, window.index), 2 * window.lengthMs, 'NX');
      // A refund comes off the window the reservation was charged to, or not at all once it is past.
      if (refund > 0) await redis.decrby(keys.accountStoredBytes(account, window.index), refund);
    },

    async storedBytes(account, now = Date.now()) {
      const window = storageWindow(now, retentionSeconds);
      const [current, previous] = await redis.mget(keys.accountStoredBytes(account, window.index), keys.accountStoredBytes(account, window.index - 1));
      return Math.round(slidingStoredBytes(Number(current ?? 0), Number(previous ?? 0), window, now));
    },
    count: (account) => redis.zcard(keys.accountReservedRuns(account)),
    prune,
  };
}
