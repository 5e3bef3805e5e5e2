import { createKeySpace, createScheduleStore, type ScheduleSpec } from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// Real Redis: what the due set holds after each write, since a member there is what a firer fires.
describe('schedule store', () => {
  const keys = createKeySpace(isolatedPrefix('schedule-store'));
  let redis: Redis;
  const spec: ScheduleSpec = { choreo: '/Test/Quick', inputs: [], timing: { everyMs: 60_000 }, overlap: 'skip', catchupWindowSeconds: 60 };

  beforeAll(() => {
    redis = new Redis(inject('redisUrl'));
  });

  afterAll(async () => {
    await deleteKeysWithPrefix(redis, keys.prefix);
    redis.disconnect();
  });

  it('a schedule written paused is never in the due set; a replace unpaused puts it there at its next tick', async () => {
    const schedules = createScheduleStore({ redis, keys });
    const { created, schedule } = await schedules.put('acme', 'quiet', spec, { now: 1_000, paused: true });
    expect(created).toBe(true);
    expect(schedule.paused).toBe(true);
    expect(await redis.zscore(keys.schedulesDue(), 'acme\nquiet')).toBeNull();
    const replaced = await schedules.put('acme', 'quiet', spec, { now: 1_000, paused: false });
    expect(replaced.created).toBe(false);
    expect(Number(await redis.zscore(keys.schedulesDue(), 'acme\nquiet'))).toBe(60_000);
  });

  it('pausing or resuming a schedule that is gone changes nothing and leaves nothing behind', async () => {
    const schedules = createScheduleStore({ redis, keys });
    await schedules.put('acme', 'gone', spec, { now: 0, paused: false });
    expect(await schedules.delete('acme', 'gone')).toBe(true);
    expect(await schedules.setPaused('acme', 'gone', false, 0)).toBeUndefined();
    expect(await schedules.setPaused('acme', 'gone', true, 0)).toBeUndefined();
    expect(await redis.exists(keys.schedule('acme', 'gone'))).toBe(0);
    expect(await redis.zscore(keys.schedulesDue(), 'acme\ngone')).toBeNull();
  });

  it('a resume starts at the first tick after now', async () => {
    const schedules = createScheduleStore({ redis, keys });
    await schedules.put('acme', 'later', spec, { now: 0, paused: false });
    expect((await schedules.setPaused('acme', 'later', true, 0))?.paused).toBe(true);
    expect(await redis.zscore(keys.schedulesDue(), 'acme\nlater')).toBeNull();
    const resumed = await schedules.setPaused('acme', 'later', false, 600_001);
    expect(resumed).toMatchObject({ paused: false, cursor: 660_000 });
    expect(Number(await redis.zscore(keys.schedulesDue(), 'acme\nlater'))).toBe(660_000);
  });

  it('a replace starts afresh: a tick left waiting under buffer-one is dropped, the counts are kept', async () => {
    const schedules = createScheduleStore({ redis, keys });
    await schedules.put('acme', 'buffered', { ...spec, overlap: 'buffer-one' }, { now: 0, paused: false });
    // As the firer leaves it when a tick waits for the last run to end.
    await redis.hset(keys.schedule('acme', 'buffered'), { b: '60000', f: '3' });
    expect(await schedules.get('acme', 'buffered')).toMatchObject({ buffered: 60_000, fired: 3 });
    const { schedule } = await schedules.put('acme', 'buffered', spec, { now: 0, paused: false });
    expect(schedule.buffered).toBeUndefined();
    expect(schedule.fired).toBe(3);
  });
});
