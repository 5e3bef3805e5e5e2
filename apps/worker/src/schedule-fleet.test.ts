import { fileURLToPath } from 'node:url';
import { type Catalogue, loadCatalogue } from '@ces/catalogue';
import { createLogger } from '@ces/observability';
import {
  createDefinitionStore,
  createExecutionQueue,
  createExecutionStore,
  createKeySpace,
  createScheduleStore,
  tickExecutionId,
  type ExecutionJobData,
  singleExecutionQueue,
} from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, waitFor } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { catalogueLookup } from './child-choreos.ts';
import { createScheduleFirer } from './schedule-firer.ts';
import { createScheduleRuns } from './schedule-runs.ts';

const ENCODE = '/Library/Utilities/Encoding/Base64Encode';

// Three firers, each on its own connection, over real accepts: each tick has one run and one job.
describe('schedule firers over real accepts', () => {
  const prefix = isolatedPrefix('schedule-fleet');
  const keys = createKeySpace(prefix);
  const logger = createLogger({ name: 'schedule-fleet-test', level: 'silent' });
  let redis: Redis;
  let catalogue: Catalogue;
  const connections: Redis[] = [];
  const queues: ReturnType<typeof createExecutionQueue>[] = [];

  beforeAll(async () => {
    redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    catalogue = await loadCatalogue(fileURLToPath(new URL('../../../choreos', import.meta.url)));
  });

  afterAll(async () => {
    for (const queue of queues) await queue.close();
    await deleteKeysWithPrefix(redis, prefix);
    for (const connection of connections) connection.disconnect();
    redis.disconnect();
  });

  function firer() {
    const connection = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    connections.push(connection);
    const queue = createExecutionQueue({ connection, keys });
    queues.push(queue);
    const startTick = createScheduleRuns({
      executions: createExecutionStore({ redis: connection, keys, retentionSeconds: 300 }),
      definitions: createDefinitionStore({ redis: connection, keys }),
      queues: singleExecutionQueue(queue),
      shardsAt: () => 1,
      lookup: catalogueLookup(catalogue),
      maxRunningPerAccount: 0,
      maxStoredBytesPerAccount: 0,
      defaultTimeLimitSeconds: 60,
    });
    return createScheduleFirer({ schedules: createScheduleStore({ redis: connection, keys }), startTick, logger, leaseMs: 5_000, pollMs: 50, batch: 10 });
  }

  it('every tick of an every-second schedule has exactly one run and one job, and no tick is left out', async () => {
    const schedules = createScheduleStore({ redis, keys });
    const putAt = Date.now();
    await schedules.put(
      'fleet',
      'each-second',
      { choreo: ENCODE, inputs: [{ name: 'Text', value: 'tick' }], timing: { everyMs: 1_000 }, overlap: 'allow-all', catchupWindowSeconds: 3_600 },
      { now: putAt, paused: false },
    );
    const firers = [firer(), firer(), firer()];
    for (const each of firers) each.start();
    await waitFor(async () => ((await schedules.get('fleet', 'each-second'))?.fired ?? 0) >= 3, { timeoutMs: 15_000, what: 'three ticks fired' });
    await Promise.all(firers.map((each) => each.stop()));

    const stored = await schedules.get('fleet', 'each-second');
    const fired = stored?.fired ?? 0;
    const first = (Math.floor(putAt / 1_000) + 1) * 1_000;
    const ticks = Array.from({ length: fired }, (_, index) => first + index * 1_000);
    expect(stored?.cursor).toBe(first + fired * 1_000);
    const executions = createExecutionStore({ redis, keys, retentionSeconds: 300 });
    for (const tick of ticks) expect(await executions.get(tickExecutionId('fleet', 'each-second', tick))).toMatchObject({ status: 'RUNNING' });
    const jobs = await queues[0]?.getJobs(['waiting', 'prioritized', 'delayed', 'active']);
    const jobIds = (jobs ?? []).map((job: { data: ExecutionJobData }) => job.data.executionId).sort();
    expect(jobIds).toEqual(ticks.map((tick) => tickExecutionId('fleet', 'each-second', tick)).sort());
  });
});
