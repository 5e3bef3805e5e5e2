import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { findFreePort } from '@ces/local-runtime';
import {
  createAccountReservations,
  createExecutionStore,
  createKeySpace,
  createShardedExecutionStore,
  type ExecutionStore,
  newExecutionId,
  openShardLayout,
  type ShardLayout,
} from '@ces/store';
import { Redis } from 'ioredis';
import { round } from '../latency-summary.ts';
import { redisInfo } from '../redis-info.ts';
import { redisWorkPerOperation, redisWorkSnapshot } from '../redis-work.ts';
import type { Row } from '../report.ts';
import type { ScenarioContext } from './scenario-context.ts';
import { startRedisServer, storeRun } from './store-run.ts';

const RUNS = 5_000;
const CONCURRENCY = 16;
/** Rounds of each side, alternated: one shard, three, three, one… */
const ROUNDS = 4;

interface Cost {
  commands: number;
  cpuMs: number;
}

/** Redis's own CPU so far, user and system. */
async function redisCpuMs(redis: Redis): Promise<number> {
  const cpu = await redisInfo(redis, 'cpu');
  return (Number(cpu.get('used_cpu_user') ?? 0) + Number(cpu.get('used_cpu_sys') ?? 0)) * 1000;
}

/** RUNS runs' accept, take and end through the store, CONCURRENCY at a time, with the account's quota set. */
async function measure(redis: Redis, layout: ShardLayout, store: ExecutionStore): Promise<Cost> {
  const [work, cpu] = [await redisWorkSnapshot(redis), await redisCpuMs(redis)];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < RUNS) {
        next++;
        const now = Date.now();
        const id = newExecutionId(layout.pick().index);
        await store.accept(storeRun(id, '/Bench/Shards', now), { maxRunningPerAccount: 1_000 });
        const lease = randomBytes(8).toString('hex');
        await store.take(id, { host: '127.0.0.1', workerId: 'bench', lease });
        await store.end(id, { status: 'SUCCESS', outputs: { Out: 'done' }, account: 'bench', lease });
      }
    }),
  );
  const cpuMs = ((await redisCpuMs(redis)) - cpu) / RUNS;
  return { commands: redisWorkPerOperation(work, await redisWorkSnapshot(redis), RUNS).commands, cpuMs };
}

async function storeOver(redis: Redis, shards: number): Promise<{ layout: ShardLayout; store: ExecutionStore }> {
  const layout = await openShardLayout(redis, createKeySpace(`{bench-shards-${shards}-${randomBytes(3).toString('hex')}}`), shards);
  const reservations = layout.grows ? createAccountReservations({ redis, layout, retentionSeconds: 300 }) : undefined;
  const store = createShardedExecutionStore(
    layout,
    (shard) => createExecutionStore({ redis, keys: shard.keys, retentionSeconds: 300, ...(reservations ? { reservations } : {}) }),
    reservations,
  );
  return { layout, store };
}

/**
 * Scenario 19: what three shards cost Redis per run beside one, the store alone (no API, worker or
 * BullMQ), on one Redis of the scenario's own: each run's accept, take and end with the account's
 * quota set, so that with three shards its reservation and release in the control slot are made
 * as a deployment makes them. Commands count those the scripts call; CPU is Redis's own.
 */
export async function shardStoreCost(context: ScenarioContext): Promise<Row[]> {
  const port = await findFreePort();
  const server = startRedisServer(['--port', String(port)]);
  const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: null });
  redis.on('error', () => {});
  try {
    for (const deadline = Date.now() + 10_000; (await redis.ping().catch(() => '')) !== 'PONG'; ) {
      if (Date.now() > deadline) throw new Error('the scenario’s Redis did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const sides = { one: await storeOver(redis, 1), three: await storeOver(redis, 3) };
    const measured: Record<keyof typeof sides, Cost[]> = { one: [], three: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const side of round % 2 === 0 ? (['one', 'three'] as const) : (['three', 'one'] as const)) {
        measured[side].push(await measure(redis, sides[side].layout, sides[side].store));
      }
    }
    context.raw.shardStoreCost = measured;
    const mean = (costs: Cost[], pick: (cost: Cost) => number) => costs.reduce((sum, cost) => sum + pick(cost), 0) / costs.length;
    const scenario = '19 three shards beside one, the store alone';
    const figures = [
      ['Redis commands per run (accept, take, end; scripts’ calls included)', 'commands', (cost: Cost) => cost.commands, 1],
      ['Redis CPU per run', 'ms', (cost: Cost) => cost.cpuMs, 3],
    ] as const;
    return figures.map(([figure, unit, pick, digits]) => ({
      scenario,
      figure,
      unit,
      value: round(mean(measured.three, pick), digits),
      baseline: { label: 'one shard', value: round(mean(measured.one, pick), digits) },
      details: { rounds: measured },
    }));
  } finally {
    redis.disconnect();
    server.kill('SIGKILL');
    await once(server, 'exit');
  }
}
