import { createLogger } from '@ces/observability';
import { createExecutionStore, createKeySpace, createScheduleStore, type ScheduleSpec, ticksAfter } from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, newExecutionFixture, waitFor } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createScheduleFirer, type StartTick } from './schedule-firer.ts';

// Real Redis, several firers on their own connections: each tick of a schedule is accepted once.
describe('schedule firer', () => {
  // One key space per test: the due set is shared by every schedule in a key space.
  const prefixes: string[] = [];
  let keys = createKeySpace(isolatedPrefix('sched'));
  const logger = createLogger({ name: 'schedule-firer-test', level: 'silent' });
  const connections: Redis[] = [];
  const connect = () => {
    const redis = new Redis(inject('redisUrl'));
    connections.push(redis);
    return redis;
  };
  let redis: Redis;

  beforeAll(() => {
    redis = connect();
  });

  beforeEach(() => {
    const prefix = isolatedPrefix('sched');
    prefixes.push(prefix);
    keys = createKeySpace(prefix);
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeysWithPrefix(redis, prefix);
    for (const connection of connections) connection.disconnect();
  });

  const everySecond = (extra: Partial<ScheduleSpec> = {}): ScheduleSpec => ({
    choreo: '/Test/Quick',
    inputs: [],
    timing: { everyMs: 1_000 },
    overlap: 'allow-all',
    catchupWindowSeconds: 3_600,
    ...extra,
  });

  /**
   * Accepts the tick's run with an idempotency identity made of the tick's, as the service does;
   * `accepted` records the run each tick really started.
   */
  function acceptingRuns(account: string) {
    const executions = createExecutionStore({ redis: connect(), keys, retentionSeconds: 300 });
    const accepted = new Map<string, string[]>();
    const startTick: StartTick = async ({ schedule, scheduledTime }) => {
      const execution = newExecutionFixture({ account });
      const result = await executions.accept(execution, {
        maxRunningPerAccount: 0,
        idempotency: { key: `schedule\n${schedule.name}\n${scheduledTime}`, requestDigest: 'schedule' },
      });
      if (result.outcome === 'accepted') {
        const tick = `${schedule.name}@${scheduledTime}`;
        accepted.set(tick, [...(accepted.get(tick) ?? []), execution.id]);
      } else if (result.outcome !== 'replay') {
        throw new Error(`accept answered ${result.outcome}`);
      }
      return 'started';
    };
    return { accepted, startTick };
  }

  it('starts each tick of every-second schedules once with three firers at once', async () => {
    const account = 'three-firers';
    const schedules = createScheduleStore({ redis, keys });
    const names = ['a', 'b', 'c', 'd'];
    for (const name of names) await schedules.put(account, name, everySecond(), { now: Date.now(), paused: false });
    const firsts = new Map((await schedules.list(account)).map((schedule) => [schedule.name, schedule.cursor]));
    const { accepted, startTick } = acceptingRuns(account);
    const firers = [0, 1, 2].map(() =>
      createScheduleFirer({ schedules: createScheduleStore({ redis: connect(), keys }), startTick, logger, leaseMs: 5_000, pollMs: 50, batch: 2 }),
    );
    for (const firer of firers) firer.start();
    await waitFor(async () => (await schedules.list(account)).every((schedule) => schedule.fired >= 4), { timeoutMs: 15_000, what: 'four ticks each' });
    await Promise.all(firers.map((firer) => firer.stop()));

    for (const schedule of await schedules.list(account)) {
      const first = firsts.get(schedule.name) as number;
      const ticks = [first, ...ticksAfter(schedule.spec.timing, first, (schedule.cursor - first) / 1_000 - 1)];
      // Every tick before the cursor started one run, no more, and no tick was left out.
      for (const tick of ticks) expect(accepted.get(`${schedule.name}@${tick}`), `${schedule.name}@${tick}`).toHaveLength(1);
      expect(schedule.fired).toBe(ticks.length);
    }
    const fired = (await schedules.list(account)).reduce((sum, schedule) => sum + schedule.fired, 0);
    expect(accepted.size).toBe(fired);
    // Left in the due set they would fall due again and be claimed by the next test's firers.
    for (const name of names) await schedules.delete(account, name);
  });

  it('a firer that dies after accepting and before moving the cursor: another fires the same tick, which starts nothing new', async () => {
    const account = 'crash-between';
    const schedules = createScheduleStore({ redis, keys });
    const { schedule } = await schedules.put(account, 'nightly', everySecond(), { now: Date.now() - 1_000, paused: false });
    const { accepted, startTick } = acceptingRuns(account);
    const dying: StartTick = async (tick) => {
      await startTick(tick);
      throw new Error('killed before the cursor moved');
    };
    const first = createScheduleFirer({ schedules, startTick: dying, logger, leaseMs: 300, pollMs: 50, batch: 10 });
    expect(await first.fireDue()).toBe(1);
    expect(accepted.get(`nightly@${schedule.cursor}`)).toHaveLength(1);
    expect((await schedules.get(account, 'nightly'))?.cursor).toBe(schedule.cursor);

    // Its lease holds the schedule away from others until it ends, then another firer takes it.
    const second = createScheduleFirer({ schedules: createScheduleStore({ redis: connect(), keys }), startTick, logger, leaseMs: 300, pollMs: 20, batch: 10 });
    expect(await second.fireDue()).toBe(0);
    second.start();
    await waitFor(async () => ((await schedules.get(account, 'nightly'))?.cursor ?? 0) > schedule.cursor, { what: 'the cursor past the tick' });
    await second.stop();
    expect(accepted.get(`nightly@${schedule.cursor}`)).toHaveLength(1);
  });

  it('a firer that lost its lease changes nothing: the cursor moves by compare-and-set', async () => {
    const account = 'late-firer';
    const schedules = createScheduleStore({ redis, keys });
    await schedules.put(account, 'hourly', everySecond(), { now: Date.now() - 2_000, paused: false });
    const [claimed] = await schedules.claimDue(Date.now(), 1, 10);
    if (!claimed) throw new Error('nothing claimed');
    const [again] = await waitFor(async () => {
      const found = await schedules.claimDue(Date.now(), 10_000, 10);
      return found.length > 0 && found;
    });
    if (!again) throw new Error('nothing claimed again');
    expect(await schedules.advance(again, { from: again.cursor, to: again.cursor + 1_000, fired: 1, release: true })).toBe('moved');
    expect(await schedules.advance(claimed, { from: claimed.cursor, to: claimed.cursor + 1_000, fired: 1, release: true })).toBe('moved-elsewhere');
    expect((await schedules.get(account, 'hourly'))?.fired).toBe(1);
  });

  it('after an outage, ticks within the catch-up window start once each, oldest first; older ones are counted as missed', async () => {
    const account = 'outage';
    const schedules = createScheduleStore({ redis, keys });
    const now = Math.floor(Date.now() / 1_000) * 1_000 + 500;
    await schedules.put(account, 'catch-up', everySecond({ catchupWindowSeconds: 5 }), { now: now - 20_000, paused: false });
    const order: number[] = [];
    const { accepted, startTick } = acceptingRuns(account);
    const firer = createScheduleFirer({
      schedules,
      startTick: async (tick) => {
        order.push(tick.scheduledTime);
        return startTick(tick);
      },
      logger,
      leaseMs: 5_000,
      pollMs: 50,
      batch: 10,
      now: () => now,
    });
    await firer.fireDue();
    // Ticks at now-19.5s … now-0.5s: those older than now-5s are missed, the five after start.
    expect(order).toEqual([4_500, 3_500, 2_500, 1_500, 500].map((ago) => now - ago));
    expect(accepted.size).toBe(5);
    const after = await schedules.get(account, 'catch-up');
    expect(after).toMatchObject({ fired: 5, missed: 15, cursor: now + 500 });
    expect(await redis.zscore(keys.schedulesDue(), `${account}\ncatch-up`)).toBe(String(now + 500));
  });

  it('a paused schedule is not fired; a resume does not catch up the ticks while paused', async () => {
    const account = 'paused';
    const schedules = createScheduleStore({ redis, keys });
    const now = Date.now();
    await schedules.put(account, 'held', everySecond(), { now: now - 10_000, paused: true });
    const { accepted, startTick } = acceptingRuns(account);
    const firer = createScheduleFirer({ schedules, startTick, logger, leaseMs: 5_000, pollMs: 50, batch: 10, now: () => now });
    await firer.fireDue();
    expect(accepted.size).toBe(0);
    const resumed = await schedules.setPaused(account, 'held', false, now);
    expect(resumed?.cursor).toBeGreaterThan(now);
    await firer.fireDue();
    expect(accepted.size).toBe(0);
    expect(resumed?.missed).toBe(0);
  });

  it('a deleted schedule leaves the due set when a firer next holds it', async () => {
    const account = 'deleted';
    const schedules = createScheduleStore({ redis, keys });
    await schedules.put(account, 'gone', everySecond(), { now: Date.now() - 2_000, paused: false });
    const [claimed] = await schedules.claimDue(Date.now(), 5_000, 10);
    if (!claimed) throw new Error('nothing claimed');
    expect(await schedules.delete(account, 'gone')).toBe(true);
    expect(await schedules.advance(claimed, { from: claimed.cursor, to: claimed.cursor + 1_000, fired: 1, release: true })).toBe('gone');
    expect(await redis.zscore(keys.schedulesDue(), `${account}\ngone`)).toBeNull();
  });

  it('moves asked for at once (one script call) each stand alone: moved, moved elsewhere, gone', async () => {
    const account = 'together';
    const schedules = createScheduleStore({ redis, keys });
    for (const name of ['a', 'b', 'c']) await schedules.put(account, name, everySecond(), { now: Date.now() - 2_000, paused: false });
    const claimed = await schedules.claimDue(Date.now(), 5_000, 10);
    const byName = new Map(claimed.map((schedule) => [schedule.name, schedule]));
    const [a, b, c] = ['a', 'b', 'c'].map((name) => byName.get(name));
    if (!a || !b || !c) throw new Error('not all claimed');
    await schedules.delete(account, 'c');
    const replies = await Promise.all([
      schedules.advance(a, { from: a.cursor, to: a.cursor + 1_000, fired: 1, release: true }),
      schedules.advance(b, { from: b.cursor - 1_000, to: b.cursor + 1_000, fired: 1, release: true }),
      schedules.advance(c, { from: c.cursor, to: c.cursor + 1_000, fired: 1, release: true }),
    ]);
    expect(replies).toEqual(['moved', 'moved-elsewhere', 'gone']);
    expect(await schedules.get(account, 'a')).toMatchObject({ cursor: a.cursor + 1_000, fired: 1, lastTick: a.cursor });
    expect(await schedules.get(account, 'b')).toMatchObject({ cursor: b.cursor, fired: 0 });
    expect(await redis.zscore(keys.schedulesDue(), `${account}\na`)).toBe(String(a.cursor + 1_000));
    expect(await redis.zscore(keys.schedulesDue(), `${account}\nc`)).toBeNull();
  });
});
