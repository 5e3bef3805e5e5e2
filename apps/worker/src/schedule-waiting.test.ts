import { createLogger, createMetricsRegistry, createScheduleTickMetrics } from '@ces/observability';
import { createKeySpace, createScheduleStore, type ScheduleSpec } from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, waitFor } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createScheduleFirer, type StartTick } from './schedule-firer.ts';

// Real Redis and a real firer: a tick a trigger or a backfill leaves waiting under buffer-one
// (bufferTick) is started by a firer once the last run has ended, whoever holds the schedule then.
describe('schedule waiting ticks', () => {
  const logger = createLogger({ name: 'schedule-waiting-test', level: 'silent' });
  const prefixes: string[] = [];
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(inject('redisUrl'));
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeysWithPrefix(redis, prefix);
    redis.disconnect();
  });

  const ownKeys = () => {
    const prefix = isolatedPrefix('schedule-waiting');
    prefixes.push(prefix);
    return createKeySpace(prefix);
  };
  const spec = (everyMs: number): ScheduleSpec => ({
    choreo: '/Test/Quick',
    inputs: [],
    timing: { everyMs },
    overlap: 'buffer-one',
    catchupWindowSeconds: 3_600,
  });

  it('a tick left waiting while a firer holds the schedule is kept: the firer skips its own tick, puts the schedule back early and starts the waiting one once the run ended', async () => {
    const keys = ownKeys();
    const schedules = createScheduleStore({ redis, keys });
    const { schedule } = await schedules.put('acme', 'held', spec(60_000), { now: Date.now() - 60_000, paused: false });
    const triggered = Date.now() - 100;
    let running = true;
    const started: number[] = [];
    const startTick: StartTick = async ({ scheduledTime }) => {
      if (scheduledTime === schedule.cursor) {
        // A trigger arrives while this firer holds the schedule: its lease's end stays its score.
        const leaseEnd = await redis.zscore(keys.schedulesDue(), 'acme\nheld');
        expect(await schedules.bufferTick('acme', 'held', triggered, Date.now())).toBe('waits');
        expect(await redis.zscore(keys.schedulesDue(), 'acme\nheld')).toBe(leaseEnd);
      }
      if (running) return 'busy';
      started.push(scheduledTime);
      return 'started';
    };
    const registry = createMetricsRegistry({ service: 'worker', processMetrics: false });
    const metrics = createScheduleTickMetrics(registry);
    const firer = createScheduleFirer({ schedules, startTick, logger, leaseMs: 5_000, pollMs: 50, batch: 10, metrics });
    expect(await firer.fireDue()).toBe(1);
    const after = await schedules.get('acme', 'held');
    // The firer's own tick found one waiting: counted as skipped, the trigger's tick kept; its
    // metrics say the same.
    expect(after).toMatchObject({ buffered: triggered, skipped: 1, fired: 0, cursor: schedule.cursor + 60_000 });
    const counted = await registry.getSingleMetricAsString('ces_schedule_ticks_total');
    expect(counted).toContain('ces_schedule_ticks_total{outcome="skipped",service="worker"} 1');
    expect(counted).not.toContain('outcome="buffered"');
    expect(Number(await redis.zscore(keys.schedulesDue(), 'acme\nheld'))).toBeLessThanOrEqual(Date.now() + 1_000);

    running = false;
    firer.start();
    await waitFor(async () => (await schedules.get('acme', 'held'))?.fired === 1, { what: 'the waiting tick started' });
    await firer.stop();
    expect(started).toEqual([triggered]);
    const ended = await schedules.get('acme', 'held');
    expect(ended).toMatchObject({ fired: 1, skipped: 1, lastTick: triggered });
    expect(ended?.buffered).toBeUndefined();
    expect(Number(await redis.zscore(keys.schedulesDue(), 'acme\nheld'))).toBe(schedule.cursor + 60_000);
  });

  it('an idle schedule is brought forward for its waiting tick, a paused one at its resume; a second tick is skipped, one of a schedule gone changes nothing', async () => {
    const keys = ownKeys();
    const schedules = createScheduleStore({ redis, keys });
    const hour = spec(3_600_000);
    const { schedule } = await schedules.put('acme', 'idle', hour, { now: Date.now(), paused: false });
    expect(Number(await redis.zscore(keys.schedulesDue(), 'acme\nidle'))).toBe(schedule.cursor);
    const now = Date.now();
    expect(await schedules.bufferTick('acme', 'idle', now - 5, now)).toBe('waits');
    expect(Number(await redis.zscore(keys.schedulesDue(), 'acme\nidle'))).toBe(now + 1_000);
    expect(await schedules.bufferTick('acme', 'idle', now - 5, now)).toBe('waits');
    expect(await schedules.bufferTick('acme', 'idle', now - 4, now)).toBe('skipped');
    expect(await schedules.get('acme', 'idle')).toMatchObject({ buffered: now - 5, skipped: 1 });

    await schedules.put('acme', 'paused', hour, { now, paused: true });
    expect(await schedules.bufferTick('acme', 'paused', now - 5, now)).toBe('waits');
    expect(await redis.zscore(keys.schedulesDue(), 'acme\npaused')).toBeNull();
    await schedules.setPaused('acme', 'paused', false, now + 10);
    expect(Number(await redis.zscore(keys.schedulesDue(), 'acme\npaused'))).toBe(now + 1_010);

    expect(await schedules.bufferTick('acme', 'gone', now, now)).toBe('gone');
    expect(await redis.exists(keys.schedule('acme', 'gone'))).toBe(0);
  });
});
