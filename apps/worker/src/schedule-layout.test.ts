import { createLogger } from '@ces/observability';
import { createKeySpace, createScheduleStore, type ScheduleSpec } from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createScheduleFirer, type StartTick } from './schedule-firer.ts';

// Real Redis: the hash a schedule is kept in, as written now and as written before.
describe('schedule layout', () => {
  const keys = createKeySpace(isolatedPrefix('schedule-layout'));
  const logger = createLogger({ name: 'schedule-layout-test', level: 'silent' });
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(inject('redisUrl'));
  });

  afterAll(async () => {
    await deleteKeysWithPrefix(redis, keys.prefix);
    redis.disconnect();
  });

  const spec: ScheduleSpec = {
    choreo: '/Library/Utilities/Encoding/Base64Encode',
    inputs: [{ name: 'Text', value: 'tick' }],
    timing: { everyMs: 1_000 },
    overlap: 'allow-all',
    catchupWindowSeconds: 3_600,
  };

  it('an idle schedule is a listpack hash of two short fields, read back as written', async () => {
    const schedules = createScheduleStore({ redis, keys });
    const { schedule } = await schedules.put('acme', 'small', spec, { now: 0, paused: false });
    expect(schedule).toMatchObject({ spec, cursor: 1_000, paused: false, fired: 0, missed: 0, skipped: 0 });
    const key = keys.schedule('acme', 'small');
    expect(Object.keys(await redis.hgetall(key)).sort()).toEqual(['c', 's']);
    expect(await redis.object('ENCODING', key)).toBe('listpack');
    // Left in the due set it would fall due in the firer's test below.
    await schedules.delete('acme', 'small');
  });

  it('a long spec is kept in pieces of at most 64 bytes, so the hash stays a listpack, and a shorter one drops the rest', async () => {
    const schedules = createScheduleStore({ redis, keys });
    const long: ScheduleSpec = {
      ...spec,
      choreo: '/Mine/Reports/Weekly',
      inputs: [{ name: 'Recipients', value: `ops@example.com, ${'é'.repeat(80)}` }],
      timing: { cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' },
      overlap: 'buffer-one',
      catchupWindowSeconds: 0,
      preset: 'mail',
      note: 'weekday report',
    };
    const { schedule } = await schedules.put('acme', 'long', long, { now: 0, paused: true });
    expect(schedule.spec).toEqual(long);
    const key = keys.schedule('acme', 'long');
    const hash = await redis.hgetall(key);
    for (const value of Object.values(hash)) expect(Buffer.byteLength(value)).toBeLessThanOrEqual(64);
    expect(hash.s3).toBeDefined();
    expect(await redis.object('ENCODING', key)).toBe('listpack');
    await schedules.put('acme', 'long', spec, { now: 0, paused: false });
    expect(Object.keys(await redis.hgetall(key)).sort()).toEqual(['c', 's']);
    expect((await schedules.get('acme', 'long'))?.spec).toEqual(spec);
    await schedules.delete('acme', 'long');
  });

  it('a schedule stored the old way is read, fires and counts on, its fields renamed at its first write', async () => {
    const key = keys.schedule('acme', 'old');
    const cursor = Math.floor(Date.now() / 1_000) * 1_000 - 1_000;
    await redis.hset(key, {
      spec: JSON.stringify({ ...spec, overlap: 'skip' }),
      cursor: String(cursor),
      paused: '0',
      fired: '7',
      skipped: '2',
      missed: '0',
      lastTick: String(cursor - 1_000),
      stateNote: 'back',
    });
    await redis.sadd(keys.accountSchedules('acme'), 'old');
    await redis.zadd(keys.schedulesDue(), cursor, 'acme\nold');
    const schedules = createScheduleStore({ redis, keys });
    expect(await schedules.get('acme', 'old')).toMatchObject({
      spec: { ...spec, overlap: 'skip' },
      cursor,
      fired: 7,
      skipped: 2,
      lastTick: cursor - 1_000,
      stateNote: 'back',
    });

    const started: number[] = [];
    const startTick: StartTick = async ({ scheduledTime }) => {
      started.push(scheduledTime);
      return 'started';
    };
    const firer = createScheduleFirer({ schedules, startTick, logger, leaseMs: 5_000, pollMs: 50, batch: 10 });
    expect(await firer.fireDue()).toBe(1);
    expect(started[0]).toBe(cursor);
    const fired = await schedules.get('acme', 'old');
    expect(fired).toMatchObject({ fired: 7 + started.length, skipped: 2, missed: 0, lastTick: started.at(-1), stateNote: 'back', paused: false });
    const hash = await redis.hgetall(key);
    expect(Object.keys(hash).sort()).toEqual(['c', 'f', 'k', 'l', 'n', 's']);

    // Paused the old way: renamed at the resume, and fires on.
    await redis.del(key);
    await redis.hset(key, { spec: JSON.stringify(spec), cursor: String(cursor), paused: '1', fired: '1' });
    expect((await schedules.get('acme', 'old'))?.paused).toBe(true);
    const resumed = await schedules.setPaused('acme', 'old', false, 0);
    expect(resumed).toMatchObject({ paused: false, fired: 1, spec });
    expect(Object.keys(await redis.hgetall(key)).sort()).toEqual(['c', 'f', 's']);
    // The next put writes the spec in the new form and keeps the counts.
    const { schedule } = await schedules.put('acme', 'old', spec, { now: 0, paused: false });
    expect(schedule).toMatchObject({ fired: 1, spec });
    expect(await redis.object('ENCODING', key)).toBe('listpack');
    await schedules.delete('acme', 'old');
  });

  it('an old spec written over a new hash with pieces (a put of the version before, during an upgrade) is read whole once renamed', async () => {
    const schedules = createScheduleStore({ redis, keys });
    const long = { ...spec, choreo: `/Mine/${'x'.repeat(100)}` };
    await schedules.put('acme', 'mixed', long, { now: 0, paused: true });
    const key = keys.schedule('acme', 'mixed');
    expect(await redis.hexists(key, 's1')).toBe(1);
    await redis.hset(key, { spec: JSON.stringify(spec), cursor: '1000', paused: '1' });
    expect((await schedules.get('acme', 'mixed'))?.spec).toEqual(spec);
    const resumed = await schedules.setPaused('acme', 'mixed', true, 0, 'still');
    expect(resumed).toMatchObject({ spec, paused: true, stateNote: 'still' });
    expect(Object.keys(await redis.hgetall(key)).sort()).toEqual(['c', 'n', 'p', 's']);
    await schedules.delete('acme', 'mixed');
  });
});
