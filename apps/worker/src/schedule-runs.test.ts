import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { loadCatalogue } from '@ces/catalogue';
import { createLogger, createMetricsRegistry, createScheduleTickMetrics } from '@ces/observability';
import {
  createDefinitionStore,
  createExecutionQueue,
  createExecutionStore,
  createKeySpace,
  createPresetStore,
  createScheduleStore,
  createSecretCipher,
  tickExecutionId,
  type ScheduleSpec,
  singleExecutionQueue,
} from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { catalogueLookup } from './child-choreos.ts';
import { createScheduleFirer } from './schedule-firer.ts';
import { createScheduleRuns } from './schedule-runs.ts';

const ENCODE = '/Library/Utilities/Encoding/Base64Encode';

// Real Redis and BullMQ queue, no worker: the runs ticks start stay RUNNING, as long runs do.
describe('schedule runs', () => {
  const prefix = isolatedPrefix('schedule-runs');
  const keys = createKeySpace(prefix);
  const logger = createLogger({ name: 'schedule-runs-test', level: 'silent' });
  let redis: Redis;
  let queue: ReturnType<typeof createExecutionQueue>;
  let startTick: ReturnType<typeof createScheduleRuns>;
  let withPresets: ReturnType<typeof createScheduleRuns>;
  const cipher = createSecretCipher({ current: randomBytes(32) });
  const executions = () => createExecutionStore({ redis, keys, retentionSeconds: 300 });

  beforeAll(async () => {
    redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    queue = createExecutionQueue({ connection: redis, keys });
    const catalogue = await loadCatalogue(fileURLToPath(new URL('../../../choreos', import.meta.url)));
    startTick = createScheduleRuns({
      executions: executions(),
      definitions: createDefinitionStore({ redis, keys }),
      queues: singleExecutionQueue(queue),
      shardsAt: () => 1,
      lookup: catalogueLookup(catalogue),
      maxRunningPerAccount: 0,
      maxStoredBytesPerAccount: 0,
      defaultTimeLimitSeconds: 60,
    });
    withPresets = createScheduleRuns({
      executions: executions(),
      definitions: createDefinitionStore({ redis, keys }),
      queues: singleExecutionQueue(queue),
      shardsAt: () => 1,
      lookup: catalogueLookup(catalogue),
      maxRunningPerAccount: 0,
      maxStoredBytesPerAccount: 0,
      defaultTimeLimitSeconds: 60,
      cipher,
      presets: createPresetStore({ redis, keys, cipher, maxPresetsPerAccount: 0 }),
    });
  });

  afterAll(async () => {
    await queue.close();
    await deleteKeysWithPrefix(redis, prefix);
    redis.disconnect();
  });

  const spec = (overlap: ScheduleSpec['overlap']): ScheduleSpec => ({
    choreo: ENCODE,
    inputs: [{ name: 'Text', value: 'tick' }],
    timing: { everyMs: 1_000 },
    overlap,
    catchupWindowSeconds: 3_600,
  });

  it('records the run of a tick under an id made of the tick, queued once however often the tick fires', async () => {
    const schedules = createScheduleStore({ redis, keys });
    await schedules.put('acme', 'encode', spec('allow-all'), { now: Date.now() - 1_500, paused: false });
    const [claimed] = await schedules.claimDue(Date.now(), 5_000, 10);
    if (!claimed) throw new Error('nothing claimed');
    const id = tickExecutionId('acme', 'encode', claimed.cursor);
    expect(await startTick({ schedule: claimed, scheduledTime: claimed.cursor })).toBe('started');
    expect(await startTick({ schedule: claimed, scheduledTime: claimed.cursor })).toBe('started');
    expect(await executions().get(id)).toMatchObject({ status: 'RUNNING', account: 'acme', choreo: ENCODE, inputs: { Text: 'tick' } });
    expect(await queue.getJob(id)).toBeDefined();
    expect((await executions().counts()).started).toBe(1);
  });

  it('skip: a tick while the last run is RUNNING starts nothing and is counted; allow-all starts every tick', async () => {
    const now = Math.floor(Date.now() / 1_000) * 1_000 + 500;
    for (const overlap of ['skip', 'allow-all'] as const) {
      const schedules = createScheduleStore({ redis, keys });
      await schedules.put(`overlap-${overlap}`, 'nightly', spec(overlap), { now: now - 3_000, paused: false });
    }
    const firer = createScheduleFirer({
      schedules: createScheduleStore({ redis, keys }),
      startTick,
      logger,
      leaseMs: 5_000,
      pollMs: 50,
      batch: 10,
      now: () => now,
    });
    await firer.fireDue();
    const schedules = createScheduleStore({ redis, keys });
    expect(await schedules.get('overlap-skip', 'nightly')).toMatchObject({ fired: 1, skipped: 2, cursor: now + 500 });
    expect(await schedules.get('overlap-allow-all', 'nightly')).toMatchObject({ fired: 3, skipped: 0, cursor: now + 500 });
    const ticks = [now - 2_500, now - 1_500, now - 500];
    const skipRuns = await Promise.all(ticks.map((tick) => executions().get(tickExecutionId('overlap-skip', 'nightly', tick))));
    expect(skipRuns.map((run) => run?.status)).toEqual(['RUNNING', undefined, undefined]);
    const allRuns = await Promise.all(ticks.map((tick) => executions().get(tickExecutionId('overlap-allow-all', 'nightly', tick))));
    expect(allRuns.map((run) => run?.status)).toEqual(['RUNNING', 'RUNNING', 'RUNNING']);
  });

  it("names its schedule and tick in the run's record, and takes a preset's inputs sealed, as a run naming it does", async () => {
    await createPresetStore({ redis, keys, cipher, maxPresetsPerAccount: 0 }).put('acme', 'signing', [{ name: 'Key', value: 'k-preset', secret: true }]);
    const schedules = createScheduleStore({ redis, keys });
    const hmac: ScheduleSpec = { ...spec('allow-all'), choreo: '/Library/Utilities/Hashing/HMAC', preset: 'signing' };
    await schedules.put('acme', 'signed', hmac, { now: Date.now() - 1_500, paused: false });
    const claimed = (await schedules.claimDue(Date.now(), 5_000, 10)).find((schedule) => schedule.name === 'signed');
    if (!claimed) throw new Error('nothing claimed');
    expect(await withPresets({ schedule: claimed, scheduledTime: claimed.cursor })).toBe('started');
    const record = await executions().get(tickExecutionId('acme', 'signed', claimed.cursor));
    expect(record).toMatchObject({ schedule: { name: 'signed', scheduledTime: claimed.cursor }, inputs: { Text: 'tick' } });
    expect(record?.inputs.Key).toBeUndefined();
    expect(record?.sealedInputs).toBeDefined();
    await expect(startTick({ schedule: claimed, scheduledTime: claimed.cursor + 1_000 })).rejects.toThrow(/SECRETS_KEY/);
  });

  it('buffer-one: one tick waits while the last run goes on and starts once it ended; the ticks after it are skipped', async () => {
    const aligned = Math.floor(Date.now() / 10_000) * 10_000;
    let now = aligned + 5_000;
    // Its own due set: the schedules of the tests above are not this firer's to fire and count.
    const ownKeys = createKeySpace(isolatedPrefix('schedule-buffer'));
    const schedules = createScheduleStore({ redis, keys: ownKeys });
    await schedules.put('buffering', 'nightly', { ...spec('buffer-one'), timing: { everyMs: 10_000 } }, { now: now - 35_000, paused: false });
    const registry = createMetricsRegistry({ service: 'worker', processMetrics: false });
    const metrics = createScheduleTickMetrics(registry);
    const firer = createScheduleFirer({ schedules, startTick, logger, leaseMs: 5_000, pollMs: 50, batch: 10, bufferRecheckMs: 1_000, metrics, now: () => now });
    expect(await firer.fireDue()).toBe(1);
    const [first, second] = [aligned - 20_000, aligned - 10_000];
    expect(await schedules.get('buffering', 'nightly')).toMatchObject({ fired: 1, skipped: 1, buffered: second, lastTick: first, cursor: aligned + 10_000 });
    // Looked at again within the recheck, not only at the next tick.
    expect(await redis.zscore(ownKeys.schedulesDue(), 'buffering\nnightly')).toBe(String(now + 1_000));
    now += 1_000;
    expect(await firer.fireDue()).toBe(1);
    expect(await schedules.get('buffering', 'nightly')).toMatchObject({ fired: 1, buffered: second });
    expect(await executions().get(tickExecutionId('buffering', 'nightly', second))).toBeUndefined();

    await redis.hset(keys.execution(tickExecutionId('buffering', 'nightly', first)), 'status', 'SUCCESS');
    now += 1_000;
    expect(await firer.fireDue()).toBe(1);
    const after = await schedules.get('buffering', 'nightly');
    expect(after).toMatchObject({ fired: 2, skipped: 1, lastTick: second, cursor: aligned + 10_000 });
    expect(after?.buffered).toBeUndefined();
    expect(await redis.zscore(ownKeys.schedulesDue(), 'buffering\nnightly')).toBe(String(aligned + 10_000));
    expect(await executions().get(tickExecutionId('buffering', 'nightly', second))).toMatchObject({ status: 'RUNNING' });
    const counted = await registry.getSingleMetricAsString('ces_schedule_ticks_total');
    for (const [outcome, count] of [
      ['fired', 2],
      ['skipped', 1],
      ['buffered', 1],
    ] as const) {
      expect(counted).toContain(`ces_schedule_ticks_total{outcome="${outcome}",service="worker"} ${count}`);
    }
    await deleteKeysWithPrefix(redis, ownKeys.prefix);
    // The first tick's lag, 25 s (late on purpose); the buffered tick's wait (17 s, until the first
    // ended) was the policy's, counted as fired but not observed as the firer's lateness.
    const lags = await registry.getSingleMetricAsString('ces_schedule_tick_lag_seconds');
    expect(lags).toContain('ces_schedule_tick_lag_seconds_sum{service="worker"} 25');
    expect(lags).toContain('ces_schedule_tick_lag_seconds_count{service="worker"} 1');
  });
});
