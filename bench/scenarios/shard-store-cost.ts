import { type ChildProcess, spawn } from 'node:child_process';
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
import type { Row } from '../report.ts';
import type { ScenarioContext } from './scenario-context.ts';

const RUNS = 5_000;
const CONCURRENCY = 16;
/** Rounds of each side, alternated: one shard, three, three, one… */
const ROUNDS = 4;

interface Cost {
  commands: number;
  cpuMs: number;
}

/** Redis's commands (those its scripts call included) and CPU, from INFO. */
async function redisCounters(redis: Redis): Promise<Cost> {
  const stats = await redis.info('commandstats');
  const commands = [...stats.matchAll(/calls=(\d+)/g)].reduce((sum, [, calls]) => sum + Number(calls), 0);
  const cpu = await redis.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(cpu)?.[1] ?? 0);
  return { commands, cpuMs: (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1000 };
}

/** RUNS runs' accept, take and end through the store, CONCURRENCY at a time, with the account's quota set. */
async function measure(redis: Redis, layout: ShardLayout, store: ExecutionStore): Promise<Cost> {
  const before = await redisCounters(redis);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < RUNS) {
        next++;
        const now = Date.now();
        const id = newExecutionId(layout.pick().index);
        const execution = {
          id,
          account: 'bench',
          choreo: '/Bench/Shards',
          starttime: now,
          sourceId: '',
          definitionDigest: 'digest',
          inputs: { Text: 'hello' },
          deadline: now + 60_000,
          storeResults: false,
          outputFilters: [],
        };
        await store.accept(execution, { maxRunningPerAccount: 1_000 });
        const lease = randomBytes(8).toString('hex');
        await store.take(id, { host: '127.0.0.1', workerId: 'bench', lease });
        await store.end(id, { status: 'SUCCESS', outputs: { Out: 'done' }, account: 'bench', lease });
      }
    }),
  );
  const after = await redisCounters(redis);
  return { commands: (after.commands - before.commands) / RUNS, cpuMs: (after.cpuMs - before.cpuMs) / RUNS };
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
  const server: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
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
    return [
      {
        scenario,
        figure: 'Redis commands per run (accept, take, end; scripts’ calls included)',
        unit: 'commands',
        value: round(
          mean(measured.three, (cost) => cost.commands),
          1,
        ),
        baseline: {
          label: 'one shard',
          value: round(
            mean(measured.one, (cost) => cost.commands),
            1,
          ),
        },
      },
      {
        scenario,
        figure: 'Redis CPU per run',
        unit: 'ms',
        value: round(
          mean(measured.three, (cost) => cost.cpuMs),
          3,
        ),
        baseline: {
          label: 'one shard',
          value: round(
            mean(measured.one, (cost) => cost.cpuMs),
            3,
          ),
        },
        details: { rounds: measured },
      },
    ];
  } finally {
    redis.disconnect();
    server.kill('SIGKILL');
    await once(server, 'exit');
  }
}
