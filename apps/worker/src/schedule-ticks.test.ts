import { fileURLToPath } from 'node:url';
import { type Catalogue, loadCatalogue } from '@ces/catalogue';
import { createLogger } from '@ces/observability';
import {
  createDefinitionStore,
  createExecutionQueue,
  createExecutionStore,
  createKeySpace,
  createScheduleStore,
  type ScheduleSpec,
  type StoredSchedule,
} from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, waitFor } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { catalogueLookup } from './child-choreos.ts';
import { createScheduleFirer } from './schedule-firer.ts';
import { createTickStarter, tickExecutionId } from './schedule-ticks.ts';

const ENCODE = '/Library/Utilities/Encoding/Base64Encode';

// Real Redis, real queue and catalogue: a tick's run is accepted under the tick's identity.
describe('schedule ticks', () => {
  const prefix = isolatedPrefix('sched-ticks');
  const keys = createKeySpace(prefix);
  let redis: Redis;
  let catalogue: Catalogue;
  let queue: ReturnType<typeof createExecutionQueue>;
  const executions = () => createExecutionStore({ redis, keys, retentionSeconds: 300 });

  beforeAll(async () => {
    redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    queue = createExecutionQueue({ connection: redis, keys });
    catalogue = await loadCatalogue(fileURLToPath(new URL('../../../choreos', import.meta.url)));
  });

  afterAll(async () => {
    await queue.close();
    await deleteKeysWithPrefix(redis, prefix);
    redis.disconnect();
  });

  const starter = () =>
    createTickStarter({
      executions: executions(),
      definitions: createDefinitionStore({ redis, keys }),
      queue,
      lookup: catalogueLookup(catalogue),
      maxStoredBytesPerAccount: 0,
      defaultTimeLimitSeconds: 60,
    });

  const spec = (extra: Partial<ScheduleSpec> = {}): ScheduleSpec => ({
    choreo: ENCODE,
    inputs: [{ name: 'Text', value: 'hi' }],
    timing: { everyMs: 1_000 },
    overlap: 'skip',
    catchupWindowSeconds: 3_600,
    ...extra,
  });

  const claimed = (account: string, name: string, extra: Partial<StoredSchedule> = {}) => ({
    account,
    name,
    member: `${account}\n${name}`,
    spec: spec(),
    cursor: 0,
    paused: false,
    fired: 0,
    missed: 0,
    skipped: 0,
    ...extra,
  });

  it('a tick started again (after a crash before its cursor moved) finds its run and starts no other', async () => {
    const schedule = claimed('acme', 'again');
    const start = starter();
    expect(await start({ schedule, scheduledTime: 5_000 })).toBe('started');
    expect(await start({ schedule, scheduledTime: 5_000 })).toBe('started');
    const id = tickExecutionId('acme', 'again', 5_000);
    const record = await executions().get(id);
    expect(record).toMatchObject({ account: 'acme', choreo: ENCODE, status: 'RUNNING' });
    const jobs = await queue.getJobs(['waiting', 'prioritized', 'delayed', 'active']);
    expect(jobs.filter((job) => job.data.executionId === id || job.id === id)).toHaveLength(1);
  });

  it('skip: a tick while the last tick’s run is RUNNING starts nothing; allow-all starts it', async () => {
    const start = starter();
    const first = claimed('acme', 'overlap');
    expect(await start({ schedule: first, scheduledTime: 1_000 })).toBe('started');
    const second = claimed('acme', 'overlap', { lastTick: 1_000 });
    expect(await start({ schedule: second, scheduledTime: 2_000 })).toBe('skipped');
    expect(await executions().get(tickExecutionId('acme', 'overlap', 2_000))).toBeUndefined();
    const allowing = { ...second, spec: spec({ overlap: 'allow-all' }) };
    expect(await start({ schedule: allowing, scheduledTime: 2_000 })).toBe('started');
  });

  it('ticks from the same time in two accounts or two schedules are distinct runs', () => {
    const ids = new Set([tickExecutionId('a', 'x', 1), tickExecutionId('b', 'x', 1), tickExecutionId('a', 'y', 1), tickExecutionId('a', 'x', 2)]);
    expect(ids.size).toBe(4);
  });

  it('three firers over real accepts: every tick of an every-second schedule has exactly one run', async () => {
    const account = 'fleet';
    const schedules = createScheduleStore({ redis, keys });
    const logger = createLogger({ name: 'schedule-ticks-test', level: 'silent' });
    const started = Date.now();
    await schedules.put(account, 'each-second', spec({ overlap: 'allow-all' }), { now: started, paused: false });
    const connections = [0, 1, 2].map(() => redis.duplicate());
    const firers = connections.map((connection) =>
      createScheduleFirer({
        schedules: createScheduleStore({ redis: connection, keys }),
        startTick: starter(),
        logger,
        leaseMs: 5_000,
        pollMs: 100,
        batch: 10,
      }),
    );
    for (const firer of firers) firer.start();
    await waitFor(async () => ((await schedules.get(account, 'each-second'))?.fired ?? 0) >= 3, { timeoutMs: 10_000 });
    await Promise.all(firers.map((firer) => firer.stop()));
    for (const connection of connections) connection.disconnect();
    const stored = await schedules.get(account, 'each-second');
    const fired = stored?.fired ?? 0;
    const ticks = Array.from({ length: fired }, (_, index) => (Math.floor(started / 1_000) + 1 + index) * 1_000);
    for (const tick of ticks) expect(await executions().get(tickExecutionId(account, 'each-second', tick))).toBeDefined();
    expect(stored?.cursor).toBe((ticks.at(-1) ?? 0) + 1_000);
  });
});
