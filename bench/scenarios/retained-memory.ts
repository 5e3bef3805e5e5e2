import type { Redis } from 'ioredis';
import { round } from '../latency-summary.ts';
import { redisInfo } from '../redis-info.ts';
import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { EXECUTION_QUEUE } from '@ces/store';
import { BASE64_BODY, BASE64_ENCODE, drainService, runJob, runningCount, type ScenarioContext } from './scenario-context.ts';

const RUNS = 2_000;

async function usedMemory(redis: Redis): Promise<number> {
  const used = (await redisInfo(redis, 'memory')).get('used_memory');
  if (used === undefined) throw new Error('INFO memory has no used_memory');
  return Number(used);
}

async function keyMemory(redis: Redis, key: string): Promise<number> {
  return Number((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
}

/**
 * Redis memory per retained completed execution: used_memory before and after RUNS async runs of
 * Base64Encode (all completed and retained), less the growth of BullMQ's event stream, divided by
 * RUNS. The stream is capped (BullMQ's `maxLenEvents`), so it is not a cost per retained run: in a
 * full bench it is at its cap before this scenario; run alone, it would still be filling.
 */
export async function retainedMemory(context: ScenarioContext): Promise<Row[]> {
  const { redis, keys } = context.stack;
  const running = await runningCount(context);
  await drainService(context, running);
  await redis.call('MEMORY', 'PURGE');
  const eventStream = `${keys.prefix}:${EXECUTION_QUEUE}:events`;
  const streamBefore = await keyMemory(redis, eventStream);
  const before = await usedMemory(redis);
  const load = await runLoad(runJob(context, BASE64_ENCODE, { async: true, connections: 16, durationMs: 120_000, maxRequests: RUNS, body: BASE64_BODY }));
  await drainService(context, running);
  await redis.call('MEMORY', 'PURGE');
  const after = await usedMemory(redis);
  const streamGrowth = (await keyMemory(redis, eventStream)) - streamBefore;
  if (load.firstError) context.log(`  ${load.firstError}`);

  const usages: number[] = [];
  const historyUsages: number[] = [];
  // The record's own key, not the keys beside it (`exec:<id>:steps`).
  const recordKey = new RegExp(`^${escapeRegExp(keys.execution(''))}[0-9a-f]{32}$`);
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', keys.execution('*'), 'COUNT', 500);
    cursor = next;
    for (const key of found) {
      if (usages.length >= 20) break;
      if (!recordKey.test(key)) continue;
      if ((await redis.hget(key, 'choreo')) !== BASE64_ENCODE || (await redis.hget(key, 'status')) !== 'SUCCESS') continue;
      usages.push(Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')));
      const history = Number(await redis.call('MEMORY', 'USAGE', keys.executionSteps(key.slice(-32)), 'SAMPLES', '0'));
      if (history > 0) historyUsages.push(history);
    }
  } while (cursor !== '0' && usages.length < 20);
  const average = (values: number[]) => (values.length > 0 ? Math.round(values.reduce((a, b) => a + b, 0) / values.length) : 0);
  const keyUsage = average(usages);
  const perExecution = round((after - before - streamGrowth) / Math.max(1, load.ok), 0);
  context.raw.retainedMemory = { runs: load.ok, usedMemoryBefore: before, usedMemoryAfter: after, eventStreamGrowth: streamGrowth, keyUsageSamples: usages };

  const scenario = '6 Redis memory';
  return [
    {
      scenario,
      figure: 'used_memory Δ per retained execution (less the capped event stream)',
      unit: 'B',
      value: perExecution,
      target: { kind: 'at-most', limit: 2355 },
      details: { runs: load.ok, usedMemoryBefore: before, usedMemoryAfter: after, eventStreamGrowth: streamGrowth },
    },
    { scenario, figure: "BullMQ's event stream growth per run (capped)", unit: 'B', value: round(streamGrowth / Math.max(1, load.ok), 0) },
    { scenario, figure: 'MEMORY USAGE of one execution hash', unit: 'B', value: keyUsage, details: { samples: usages.length } },
    {
      scenario,
      figure: 'MEMORY USAGE of its step history list (none: in the record)',
      unit: 'B',
      value: average(historyUsages),
      details: { samples: historyUsages.length },
    },
  ];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
