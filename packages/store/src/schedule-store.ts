import type { Redis } from 'ioredis';
import type { KeySpace } from './keys.ts';
import type { ClaimedSchedule, ScheduleSpec, StoredSchedule } from './schedule.ts';
import { type Advance, createAdvanceBatcher } from './schedule-advances.ts';
import { decodeSchedule, specPieces } from './schedule-record.ts';
import { registerScripts } from './scripts.ts';
import { ticksAfter } from './schedule-times.ts';

export interface ScheduleStore {
  /**
   * Creates or replaces a schedule; its cursor becomes its first tick after `now`. A new one past
   * the account's limit throws ScheduleLimitError.
   */
  put(account: string, name: string, spec: ScheduleSpec, options: { now: number; paused: boolean }): Promise<{ created: boolean; schedule: StoredSchedule }>;
  get(account: string, name: string): Promise<StoredSchedule | undefined>;
  list(account: string): Promise<StoredSchedule[]>;
  delete(account: string, name: string): Promise<boolean>;
  /** Pauses or resumes; a resume starts from the first tick after `now` (ticks while paused are not caught up). */
  setPaused(account: string, name: string, paused: boolean, now: number, note?: string): Promise<StoredSchedule | undefined>;
  /** Leases up to `limit` due schedules for `leaseMs`. */
  claimDue(now: number, leaseMs: number, limit: number): Promise<ClaimedSchedule[]>;
  /**
   * How many times schedules were put, paused, resumed or deleted: read before a claim and again
   * when a schedule claimed ahead falls due, it says whether the copy held may be stale.
   */
  changes(): Promise<number>;
  /**
   * Compare-and-set of the cursor (advance-schedules.lua): 'moved', 'moved-tick-skipped' (moved, but
   * the tick asked to wait was counted as skipped: another waits already), 'moved-elsewhere' or 'gone'.
   * The moves asked for in one turn of the event loop go to Redis in one script call.
   */
  advance(schedule: ClaimedSchedule, move: Advance): Promise<'moved' | 'moved-tick-skipped' | 'moved-elsewhere' | 'gone'>;
  /**
   * Counts a run started outside the cursor (trigger, backfill) as fired, and makes it the last
   * fired tick the overlap policy looks at; or counts a tick the policy skipped. False when gone.
   */
  recordRun(account: string, name: string, scheduledTime: number, outcome: 'fired' | 'skipped'): Promise<boolean>;
  /**
   * Under buffer-one, while the last run goes on: makes a trigger's or a backfill's tick the one
   * waiting tick, which a firer starts once that run has ended ('waits'; also when that tick waits
   * already), or counts it as skipped when another waits (buffer-schedule-tick.lua).
   */
  bufferTick(account: string, name: string, scheduledTime: number, now: number): Promise<'waits' | 'skipped' | 'gone'>;
  /** Schedules in the due set (unpaused), for metrics. */
  countDue(): Promise<number>;
  /** Schedules of one account, paused or not, for metrics. */
  countOf(account: string): Promise<number>;
}

/** A new schedule refused: its account already keeps as many as it may. */
export class ScheduleLimitError extends Error {
  readonly maxPerAccount: number;

  constructor(maxPerAccount: number) {
    super(`the account already keeps ${maxPerAccount} schedules`);
    this.name = 'ScheduleLimitError';
    this.maxPerAccount = maxPerAccount;
  }
}

const memberOf = (account: string, name: string) => `${account}\n${name}`;

/** Schedules in Redis: one small hash each (schedule-record.ts), plus one member in the due set while unpaused. */
export function createScheduleStore({
  redis,
  keys,
  maxPerAccount = 0,
  waitingRecheckMs = 1_000,
}: {
  redis: Redis;
  keys: KeySpace;
  maxPerAccount?: number;
  /** How soon a firer looks at a tick a trigger or a backfill left waiting under buffer-one. */
  waitingRecheckMs?: number;
}): ScheduleStore {
  const run = registerScripts(redis);
  const advances = createAdvanceBatcher(run, keys, waitingRecheckMs);
  // claim-due-schedules.lua reads each claimed schedule's hash under this prefix: it must name the
  // key keys.schedule() names.
  const schedulePrefix = keys.schedule('', '').slice(0, -1);
  if (keys.schedule('a', 'b') !== `${schedulePrefix}a:b`) throw new Error('a schedule key is not <prefix><account>:<name>');
  const get = async (account: string, name: string) => decodeSchedule(account, name, await redis.hgetall(keys.schedule(account, name)));

  return {
    get,

    async put(account, name, spec, { now, paused }) {
      const [cursor] = ticksAfter(spec.timing, now, 1) as [number];
      const key = keys.schedule(account, name);
      // A replace sets the cursor afresh, so a firer holding the old one changes nothing.
      const reply = await run(
        'putSchedule',
        [key, keys.accountSchedules(account), keys.schedulesDue(), keys.scheduleChanges()],
        [name, memberOf(account, name), cursor, paused ? 1 : 0, maxPerAccount, ...specPieces(spec)],
      );
      if (reply === -1) throw new ScheduleLimitError(maxPerAccount);
      const schedule = await get(account, name);
      if (!schedule) throw new Error(`schedule ${name} vanished while written`);
      return { created: reply === 1, schedule };
    },

    async list(account) {
      const names = (await redis.smembers(keys.accountSchedules(account))).sort();
      const found = await Promise.all(names.map((name) => get(account, name)));
      return found.filter((schedule): schedule is StoredSchedule => schedule !== undefined);
    },

    async delete(account, name) {
      const replies = await redis
        .multi()
        .del(keys.schedule(account, name))
        .srem(keys.accountSchedules(account), name)
        .zrem(keys.schedulesDue(), memberOf(account, name))
        .incr(keys.scheduleChanges())
        .exec();
      return replies?.[0]?.[1] === 1;
    },

    async setPaused(account, name, paused, now, note = '') {
      const schedule = await get(account, name);
      if (!schedule) return undefined;
      const [cursor] = ticksAfter(schedule.spec.timing, now, 1) as [number];
      // In one script: a delete between the read above and this write leaves nothing behind.
      const changed = await run(
        'setSchedulePaused',
        [keys.schedule(account, name), keys.schedulesDue(), keys.scheduleChanges()],
        [memberOf(account, name), paused ? 1 : 0, cursor, note, now + waitingRecheckMs],
      );
      return changed === 1 ? get(account, name) : undefined;
    },

    async claimDue(now, leaseMs, limit) {
      const pairs = (await run('claimDueSchedules', [keys.schedulesDue()], [now, leaseMs, limit, schedulePrefix])) as [string, string[]][];
      const claimed: ClaimedSchedule[] = [];
      for (const [member, fields] of pairs) {
        const [account = '', name = ''] = member.split('\n');
        const hash: Record<string, string> = {};
        for (let index = 0; index + 1 < fields.length; index += 2) hash[fields[index] as string] = fields[index + 1] as string;
        const schedule = decodeSchedule(account, name, hash);
        if (schedule) claimed.push({ ...schedule, member });
      }
      return claimed;
    },

    advance: (schedule, move) => advances.send(schedule, move),

    async recordRun(account, name, scheduledTime, outcome) {
      return (await run('recordScheduleRun', [keys.schedule(account, name)], [scheduledTime, outcome])) === 1;
    },

    async bufferTick(account, name, scheduledTime, now) {
      const reply = await run(
        'bufferScheduleTick',
        [keys.schedule(account, name), keys.schedulesDue()],
        [memberOf(account, name), scheduledTime, now + waitingRecheckMs],
      );
      return reply === 1 ? 'waits' : reply === 2 ? 'skipped' : 'gone';
    },

    countDue: () => redis.zcard(keys.schedulesDue()),
    changes: async () => Number((await redis.get(keys.scheduleChanges())) ?? 0),
    countOf: (account) => redis.scard(keys.accountSchedules(account)),
  };
}
