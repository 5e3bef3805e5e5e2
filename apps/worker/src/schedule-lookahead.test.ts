import { createLogger } from '@ces/observability';
import { createKeySpace, createScheduleStore, type ScheduleSpec } from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, waitFor } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createScheduleFirer, MOST_BURST_MS, type StartTick } from './schedule-firer.ts';

// Schedules claimed ahead of their ticks, and bursts of ticks due together, on a real Redis.
describe('schedule firer: claims ahead and bursts', () => {
  const prefixes: string[] = [];
  let keys = createKeySpace(isolatedPrefix('ahead'));
  const logger = createLogger({ name: 'schedule-lookahead-test', level: 'silent' });
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(inject('redisUrl'));
  });

  beforeEach(() => {
    const prefix = isolatedPrefix('ahead');
    prefixes.push(prefix);
    keys = createKeySpace(prefix);
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeysWithPrefix(redis, prefix);
    redis.disconnect();
  });

  const every = (everyMs: number): ScheduleSpec => ({
    choreo: '/Test/Quick',
    inputs: [],
    timing: { everyMs },
    overlap: 'allow-all',
    catchupWindowSeconds: 3_600,
  });

  /** Records when each tick was started, by schedule name and scheduled time. */
  function recordingTicks() {
    const started = new Map<string, number>();
    const startTick: StartTick = async ({ schedule, scheduledTime }) => {
      started.set(`${schedule.name}@${scheduledTime}`, Date.now());
      return 'started';
    };
    return { started, startTick };
  }

  it('a schedule claimed ahead of its tick starts it at its time, never before, once', async () => {
    const account = 'ahead';
    const schedules = createScheduleStore({ redis, keys });
    const { schedule } = await schedules.put(account, 'soon', every(1_000), { now: Date.now(), paused: false });
    const { started, startTick } = recordingTicks();
    const firer = createScheduleFirer({ schedules, startTick, logger, leaseMs: 5_000, pollMs: 50, batch: 10, lookaheadMs: 900 });
    firer.start();
    await waitFor(async () => ((await schedules.get(account, 'soon'))?.fired ?? 0) >= 2, { timeoutMs: 10_000, what: 'two ticks fired' });
    await firer.stop();
    const ticks = [...started.keys()].map((key) => Number(key.split('@')[1])).sort();
    expect(ticks.slice(0, 2)).toEqual([schedule.cursor, schedule.cursor + 1_000]);
    for (const [key, at] of started) expect(at, key).toBeGreaterThanOrEqual(Number(key.split('@')[1]));
    await schedules.delete(account, 'soon');
  });

  it('a schedule paused after a firer claimed it ahead does not fire at its tick', async () => {
    const account = 'paused-ahead';
    const schedules = createScheduleStore({ redis, keys });
    // Both tick at the same time, at least a second away, so the firer looks at both in the same
    // turn when it falls due, and the pause comes between the claim and the tick.
    const after = Date.now() + 1_000;
    await schedules.put(account, 'kept', every(2_000), { now: after, paused: false });
    const { schedule } = await schedules.put(account, 'paused', every(2_000), { now: after, paused: false });
    const tick = schedule.cursor;
    const { started, startTick } = recordingTicks();
    const firer = createScheduleFirer({ schedules, startTick, logger, leaseMs: 5_000, pollMs: 50, batch: 10, lookaheadMs: 5_000 });
    firer.start();
    // Leased: their scores in the due set moved past their tick.
    await waitFor(async () => Number(await redis.zscore(keys.schedulesDue(), `${account}\npaused`)) > tick, { what: 'both claimed ahead' });
    await schedules.setPaused(account, 'paused', true, Date.now());
    await waitFor(() => started.has(`kept@${tick}`), { timeoutMs: 10_000, what: 'the kept schedule fired' });
    await firer.stop();
    expect(started.has(`paused@${tick}`)).toBe(false);
    expect(await schedules.get(account, 'paused')).toMatchObject({ paused: true, fired: 0, cursor: tick });
    expect(await schedules.get(account, 'kept')).toMatchObject({ fired: 1 });
    for (const name of ['kept', 'paused']) await schedules.delete(account, name);
  });

  it('tells when a burst of ticks begins and ends', async () => {
    const account = 'burst';
    const schedules = createScheduleStore({ redis, keys });
    for (const name of ['a', 'b', 'c', 'd', 'e']) await schedules.put(account, name, every(60_000), { now: Date.now() - 60_000, paused: false });
    const { startTick } = recordingTicks();
    const told: boolean[] = [];
    const firerOfBursts = (burstSize: number) =>
      createScheduleFirer({ schedules, startTick, logger, leaseMs: 5_000, pollMs: 50, batch: 10, burstSize, onBurst: (bursting) => told.push(bursting) });
    expect(await firerOfBursts(3).fireDue()).toBe(5);
    expect(told).toEqual([true, false]);
    // Fewer than a burst's worth due together: nothing told.
    const quiet = firerOfBursts(10);
    await schedules.put(account, 'f', every(60_000), { now: Date.now() - 60_000, paused: false });
    expect(await quiet.fireDue()).toBe(1);
    expect(told).toEqual([true, false]);
  });

  it('ends a burst that lasts past MOST_BURST_MS, and begins none for as long', async () => {
    const account = 'long-burst';
    const schedules = createScheduleStore({ redis, keys });
    let clock = Date.now();
    const names = Array.from({ length: 24 }, (_, index) => `s${index}`);
    for (const name of names) await schedules.put(account, name, every(3_600_000), { now: clock - 3_600_000, paused: false });
    const told: [boolean, number][] = [];
    // Each tick takes half a second: the 24 of one look take twelve, four times a burst's longest.
    const startTick: StartTick = async () => {
      clock += 500;
      return 'started';
    };
    const firer = createScheduleFirer({
      schedules,
      startTick,
      logger,
      leaseMs: 600_000,
      pollMs: 50,
      batch: 100,
      burstSize: 2,
      onBurst: (bursting) => told.push([bursting, clock]),
      now: () => clock,
    });
    expect(await firer.fireDue()).toBe(24);
    expect(told.length).toBeGreaterThanOrEqual(4);
    expect(told.map(([bursting]) => bursting)).toEqual(told.map((_, index) => index % 2 === 0));
    for (let index = 1; index < told.length; index += 1) {
      const gap = (told[index] as [boolean, number])[1] - (told[index - 1] as [boolean, number])[1];
      // A burst lasts MOST_BURST_MS and one tick at most; the pause after it as long at least.
      if (index % 2 === 1) expect(gap).toBeLessThanOrEqual(MOST_BURST_MS + 500);
      else expect(gap).toBeGreaterThanOrEqual(MOST_BURST_MS);
    }
  });
});
