import type { Redis } from 'ioredis';
import { round, summarize } from '../latency-summary.ts';
import { redisInfo } from '../redis-info.ts';
import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { until } from '../bench-stack.ts';
import { EXECUTION_QUEUE } from '@ces/store';
import { BASE64_BODY, BASE64_ENCODE, runJob, runningCount, type ScenarioContext } from './scenario-context.ts';

const WAIT = '/Library/Utilities/Development/Wait';
/** Waiting runs whose keys are measured one by one (MEMORY USAGE) for the figure per key. */
const SAMPLED_RUNS = 200;

async function usedMemory(redis: Redis): Promise<number> {
  const used = (await redisInfo(redis, 'memory')).get('used_memory');
  if (used === undefined) throw new Error('INFO memory has no used_memory');
  return Number(used);
}

async function memoryUsage(redis: Redis, key: string): Promise<number> {
  // SAMPLES 0: every element counted, not an estimate from a few.
  return Number((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
}

/**
 * What one waiting run holds in Redis, key by key (bytes, MEMORY USAGE): its own keys averaged
 * over `ids`, and its share of the keys all runs share (a sorted set, a hash of list rows) as the
 * key's size over its number of entries.
 */
async function memoryPerKey(redis: Redis, keys: ScenarioContext['stack']['keys'], ids: readonly string[]): Promise<Record<string, number>> {
  const own: Record<string, (id: string) => string> = {
    record: (id) => keys.execution(id),
    progress: (id) => keys.executionProgress(id),
    stepHistory: (id) => keys.executionSteps(id),
    jobHash: (id) => `${keys.prefix}:${EXECUTION_QUEUE}:${id}`,
  };
  const figures: Record<string, number> = {};
  for (const [name, key] of Object.entries(own)) {
    let total = 0;
    for (const id of ids) total += await memoryUsage(redis, key(id));
    figures[name] = round(total / Math.max(1, ids.length), 0);
  }
  const account = ids[0] === undefined ? undefined : await redis.hget(keys.execution(ids[0]), 'account');
  const shared: Record<string, [string, number]> = {
    runningSet: [keys.running(), await redis.zcard(keys.running())],
    waitingSet: [keys.waiting(), await redis.zcard(keys.waiting())],
    delayedSet: [`${keys.prefix}:${EXECUTION_QUEUE}:delayed`, await redis.zcard(`${keys.prefix}:${EXECUTION_QUEUE}:delayed`)],
  };
  if (account) {
    const rows = keys.accountRunningRows(account);
    shared.listRows = [rows, await redis.hlen(rows)];
    const accountRunning = keys.accountRunning(account);
    shared.accountRunningSet = [accountRunning, await redis.scard(accountRunning)];
  }
  for (const [name, [key, count]] of Object.entries(shared)) figures[name] = round((await memoryUsage(redis, key)) / Math.max(1, count), 0);
  return figures;
}

/**
 * `runs` runs of Wait, each waiting `waitMs` (BENCH_WAIT_RUNS, BENCH_WAIT_SECONDS: by default the
 * target's 10,000 and 10 minutes), on one worker process with its default concurrency (8): the sync Base64Encode latency while they wait against before, the Redis memory per waiting run
 * (used_memory with every run suspended, against before they were started), and how late each
 * woke: its end time against the due time its suspension recorded (the waiting set's score).
 */
export async function durableWaits(context: ScenarioContext): Promise<Row[]> {
  const { stack } = context;
  const { redis, keys } = stack;
  const { runs, waitMs } = context.durableWaits;
  const events = `${keys.prefix}:${EXECUTION_QUEUE}:events`;
  await stack.setWorkers(1);
  const running = await runningCount(context);
  const syncJob = () =>
    runJob(context, BASE64_ENCODE, {
      async: false,
      connections: 1,
      durationMs: context.durationMs,
      maxRequests: 5_000,
      body: BASE64_BODY,
      warmupMs: context.warmupMs,
    });
  const idle = await runLoad(syncJob());

  await redis.call('MEMORY', 'PURGE');
  const before = await usedMemory(redis);
  const eventsBefore = await memoryUsage(redis, events);
  const body = JSON.stringify({ inputs: [{ name: 'Milliseconds', value: String(waitMs) }] });
  const started = await runLoad(runJob(context, WAIT, { async: true, connections: 16, durationMs: waitMs / 2, maxRequests: runs, body }));
  if (started.firstError) context.log(`  ${started.firstError}`);
  await until(async () => (await redis.zcard(keys.waiting())) >= started.ok, waitMs - 10_000, 'every run to be suspended', 250);
  const suspendedAt = Date.now();
  const flat = await redis.zrange(keys.waiting(), '0', '-1', 'WITHSCORES');
  const due = new Map<string, number>();
  for (let i = 0; i + 1 < flat.length; i += 2) due.set(flat[i] as string, Number(flat[i + 1]));
  await redis.call('MEMORY', 'PURGE');
  // BullMQ's event stream is capped (10,000 events): it grows with the first runs of a fresh Redis,
  // then stays at its cap however many runs wait. Its growth is taken out of the figure and shown
  // apart, as if measured with the stream at its cap (as after the other scenarios).
  const eventsGrowth = (await memoryUsage(redis, events)) - eventsBefore;
  const perRun = round(((await usedMemory(redis)) - before - eventsGrowth) / Math.max(1, started.ok), 0);
  const perKey = await memoryPerKey(redis, keys, [...due.keys()].slice(0, SAMPLED_RUNS));
  context.log(`  per waiting run, by key (B): ${JSON.stringify(perKey)}; event stream grew ${eventsGrowth} B`);
  // A hash whose values all fit Redis's hash-max-listpack-value (64 bytes) is a listpack, about
  // half the memory of a hashtable: shown, since one long value (a job's options) doubles the key.
  const sample = due.keys().next().value;
  if (sample !== undefined) {
    const encoding = (key: string) => redis.call('OBJECT', 'ENCODING', key);
    context.log(`  encodings: record ${await encoding(keys.execution(sample))}, job hash ${await encoding(`${keys.prefix}:${EXECUTION_QUEUE}:${sample}`)}`);
  }

  const waiting = await runLoad(syncJob());
  if (waiting.firstError) context.log(`  ${waiting.firstError}`);
  if (Date.now() - suspendedAt > waitMs / 2) context.log('  the sync runs were measured late in the wait: some runs may have woken meanwhile');

  await until(async () => (await runningCount(context)) <= running, waitMs + 120_000, 'every waiting run to wake and end', 250);
  const ids = [...due.keys()];
  const pipeline = redis.pipeline();
  for (const id of ids) pipeline.hmget(keys.execution(id), 'endtime', 'status');
  const lateness: number[] = [];
  let notSuccess = 0;
  for (const [index, [error, values]] of ((await pipeline.exec()) ?? []).entries()) {
    const [endtime, status] = (values ?? []) as (string | null)[];
    if (error || status !== 'SUCCESS') notSuccess += 1;
    else lateness.push(Number(endtime) - (due.get(ids[index] as string) ?? 0));
  }
  const late = summarize(lateness);
  const earliest = lateness.length > 0 ? Math.min(...lateness) : 0;
  context.raw.durableWaits = {
    runs: started.ok,
    waitMs: waitMs,
    idle: idle.latencyMs,
    waiting: waiting.latencyMs,
    memoryPerRun: perRun,
    memoryPerKey: perKey,
    eventStreamGrowth: eventsGrowth,
    lateness: late,
    earliest,
    notSuccess,
  };
  await stack.setWorkers(2);

  const scenario = '10 durable waits';
  return [
    {
      scenario,
      figure: `sync Base64Encode p50 while ${started.ok} runs wait (1 worker × 8)`,
      unit: 'ms',
      value: waiting.latencyMs.p50,
      baseline: { label: 'no run waiting', value: idle.latencyMs.p50 },
      target: { kind: 'at-most-baseline-plus', amount: 2 },
      details: { waitingP99: waiting.latencyMs.p99, idleP99: idle.latencyMs.p99 },
    },
    {
      scenario,
      figure: 'used_memory Δ per waiting run',
      unit: 'B',
      value: perRun,
      target: { kind: 'at-most', limit: 2048 },
      details: { runs: started.ok, usedMemoryBefore: before, eventStreamGrowth: eventsGrowth, ...perKey },
    },
    {
      scenario,
      figure: `latest wake after due time (${waitMs / 1000} s waits)`,
      unit: 'ms',
      value: late.max,
      target: { kind: 'at-most', limit: 1000 },
      details: { p50: late.p50, p99: late.p99, earliest, notSuccess },
    },
  ];
}
