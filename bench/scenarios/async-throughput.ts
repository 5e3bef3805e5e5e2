import { BASELINE_PREFIX, BASELINE_QUEUE } from '../bench-stack.ts';
import { cpuMsPerOperation, cpuSnapshot, type CpuSnapshot } from '../cpu-usage.ts';
import { round } from '../latency-summary.ts';
import { redisWorkPerOperation, redisWorkSnapshot, type RedisWorkPerOperation, type RedisWorkSnapshot } from '../redis-work.ts';
import type { LoadResult } from '../load-job.ts';
import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { BASE64_BODY, BASE64_ENCODE, drainBaseline, drainService, runJob, runningCount, type ScenarioContext } from './scenario-context.ts';

/** Requests (or adds) in flight at once, for the service and the baseline alike. */
export const THROUGHPUT_CONNECTIONS = 32;

export interface Throughput {
  acceptedPerSecond: number;
  completedPerSecond: number;
  accepted: number;
  load: LoadResult;
  drainedAt: number;
  /** CPU ms per run by process (api, worker, redis, generator, …), from load start to drained. */
  cpuMsPerRun: Record<string, number>;
  /** What Redis did per run, from load start to drained. */
  redisPerRun: RedisWorkPerOperation;
}

interface Snapshots {
  cpu: CpuSnapshot;
  redis: RedisWorkSnapshot;
}

async function snapshots(context: ScenarioContext): Promise<Snapshots> {
  return { cpu: cpuSnapshot(context.stack.pids()), redis: await redisWorkSnapshot(context.stack.redis) };
}

/** Accepted per second while loading; completed per second from the first run to the last one's end. */
function throughputOf(load: LoadResult, drainedAt: number, before: Snapshots, after: Snapshots): Throughput {
  const spanMs = Math.max(drainedAt, load.endedAt) - load.startedAt;
  const cpuMsPerRun = cpuMsPerOperation(before.cpu, after.cpu, load.ok);
  if (load.generatorCpuMs !== undefined) cpuMsPerRun.generator = Math.round((load.generatorCpuMs / Math.max(1, load.ok)) * 1000) / 1000;
  return {
    acceptedPerSecond: load.perSecond,
    completedPerSecond: round((load.ok / spanMs) * 1000, 1),
    accepted: load.ok,
    load,
    drainedAt,
    cpuMsPerRun,
    redisPerRun: redisWorkPerOperation(before.redis, after.redis, load.ok),
  };
}

/** Async runs of Base64Encode over HTTPS keep-alive, with whatever workers are running now. */
export async function measureServiceThroughput(context: ScenarioContext): Promise<Throughput> {
  const before = await runningCount(context);
  const job = (durationMs: number) =>
    runJob(context, BASE64_ENCODE, { async: true, connections: THROUGHPUT_CONNECTIONS, durationMs, maxRequests: 500_000, body: BASE64_BODY });
  await runLoad(job(context.warmupMs));
  await drainService(context, before);
  const start = await snapshots(context);
  const load = await runLoad(job(context.durationMs));
  if (load.firstError) context.log(`  service: ${load.firstError}`);
  const drainedAt = await drainService(context, before);
  return throughputOf(load, drainedAt, start, await snapshots(context));
}

/** Raw BullMQ: add → a no-op processor on as many worker processes, same Redis, same concurrency. */
export async function measureBaselineThroughput(context: ScenarioContext): Promise<Throughput> {
  const job = (durationMs: number) => ({
    kind: 'bullmq-add' as const,
    redisUrl: context.stack.redisUrl,
    prefix: BASELINE_PREFIX,
    queue: BASELINE_QUEUE,
    concurrency: THROUGHPUT_CONNECTIONS,
    durationMs,
    maxJobs: 500_000,
  });
  await runLoad(job(context.warmupMs));
  await drainBaseline(context);
  const start = await snapshots(context);
  const load = await runLoad(job(context.durationMs));
  if (load.firstError) context.log(`  baseline: ${load.firstError}`);
  const drainedAt = await drainBaseline(context);
  return throughputOf(load, drainedAt, start, await snapshots(context));
}

export async function asyncThroughput(context: ScenarioContext): Promise<Row[]> {
  const service = await measureServiceThroughput(context);
  const baseline = await measureBaselineThroughput(context);
  context.raw.asyncThroughput = { service, baseline };
  const scenario = `1 async runs (${context.stack.workerCount()} workers)`;
  return [
    {
      scenario,
      figure: 'accepted',
      unit: '/s',
      value: service.acceptedPerSecond,
      baseline: { label: 'BullMQ add', value: baseline.acceptedPerSecond },
      details: { acceptLatencyMs: service.load.latencyMs, baselineAddLatencyMs: baseline.load.latencyMs, statuses: service.load.statuses },
    },
    {
      scenario,
      figure: 'completed',
      unit: '/s',
      value: service.completedPerSecond,
      baseline: { label: 'BullMQ no-op', value: baseline.completedPerSecond },
      target: { kind: 'at-least-ratio', factor: 0.5 },
      details: {
        runs: service.accepted,
        baselineJobs: baseline.accepted,
        cpuMsPerRun: service.cpuMsPerRun,
        baselineCpuMsPerJob: baseline.cpuMsPerRun,
        redisPerRun: service.redisPerRun,
        baselineRedisPerJob: baseline.redisPerRun,
      },
    },
  ];
}
