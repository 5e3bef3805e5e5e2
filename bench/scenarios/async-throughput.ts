import { BASELINE_PREFIX, BASELINE_QUEUE } from '../bench-stack.ts';
import { addCpuMs, cpuMsPerOperation, cpuSnapshot, sharedCpuMs } from '../cpu-usage.ts';
import { round } from '../latency-summary.ts';
import type { LatencySummary, LoadJob, LoadResult } from '../load-job.ts';
import { addRedisWork, NO_REDIS_WORK, redisWorkPerOperation, redisWorkSnapshot, type RedisWorkPerOperation, type RedisWorkSnapshot } from '../redis-work.ts';
import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { alternatingRounds, ROUND_WARMUP_MS, ROUNDS } from './alternating-rounds.ts';
import { BASE64_BODY, BASE64_ENCODE, drainBaseline, drainService, runJob, runningCount, type ScenarioContext } from './scenario-context.ts';
import { must } from '@ces/testing';

/** Requests (or adds) in flight at once, for the service and the baseline alike. */
export const THROUGHPUT_CONNECTIONS = 32;

/** One measured phase: load, then wait until every run it started has ended. */
interface Phase {
  load: LoadResult;
  drainedAt: number;
  /** CPU ms by process group, from load start to drained. */
  cpuMs: Record<string, number>;
  redisBefore: RedisWorkSnapshot;
  redisAfter: RedisWorkSnapshot;
}

export interface Throughput {
  acceptedPerSecond: number;
  completedPerSecond: number;
  accepted: number;
  /** Each phase's own figures, in the order measured. */
  phases: { accepted: number; acceptedPerSecond: number; completedPerSecond: number }[];
  latencyMsOfFirstPhase: LatencySummary;
  statuses: Record<string, number>;
  /** CPU ms per run by process (api, worker, redis, generator, …), from load start to drained. */
  cpuMsPerRun: Record<string, number>;
  /** What Redis did per run, from load start to drained. */
  redisPerRun: RedisWorkPerOperation;
}

/** A side of the scenario: its load for a given time, and the wait until what it started has ended. */
interface Side {
  job(durationMs: number, warmupMs?: number): LoadJob;
  /** Resolves with the time the last run ended. */
  drain(): Promise<number>;
}

/**
 * With `warmupMs`, the phase's generator first runs that long unrecorded (it is a fresh process, its
 * code not yet optimised). The CPU and Redis work are then shared over those runs as well.
 */
async function measurePhase(context: ScenarioContext, side: Side, durationMs: number, label: string, warmupMs = 0): Promise<Phase> {
  const pids = context.stack.pids();
  const cpuBefore = cpuSnapshot(pids);
  const redisBefore = await redisWorkSnapshot(context.stack.redis);
  const load = await runLoad(side.job(durationMs, warmupMs));
  if (load.firstError) context.log(`  ${label}: ${load.firstError}`);
  const drainedAt = await side.drain();
  const cpuMs = cpuMsPerOperation(cpuBefore, cpuSnapshot(pids), 1);
  return { load, drainedAt, cpuMs, redisBefore, redisAfter: await redisWorkSnapshot(context.stack.redis) };
}

/** From a phase's first request to its last run's end. */
function completionSpanMs({ load, drainedAt }: Pick<Phase, 'load' | 'drainedAt'>): number {
  return Math.max(drainedAt, load.endedAt) - load.startedAt;
}

/**
 * Phases of one side as one figure: runs and time added up. Accepted per second counts the loading
 * time; completed per second runs from each phase's first request to its last run's end.
 */
function combinePhases(phases: Phase[]): Throughput {
  let accepted = 0;
  /** The runs the CPU and Redis work were spent on: the measured ones and any warm-up's. */
  let served = 0;
  let loadingMs = 0;
  let spanMs = 0;
  let generatorCpuMs = 0;
  let cpuMs: Record<string, number> = {};
  let redis = NO_REDIS_WORK;
  const statuses: Record<string, number> = {};
  for (const { load, drainedAt, cpuMs: phaseCpuMs, redisBefore, redisAfter } of phases) {
    accepted += load.ok;
    served += load.ok + (load.warmupCount ?? 0);
    loadingMs += load.elapsedMs;
    spanMs += completionSpanMs({ load, drainedAt });
    generatorCpuMs += load.generatorCpuMs ?? 0;
    cpuMs = addCpuMs(cpuMs, phaseCpuMs);
    redis = addRedisWork(redis, redisBefore, redisAfter);
    for (const [status, count] of Object.entries(load.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  }
  return {
    acceptedPerSecond: round((accepted / Math.max(1, loadingMs)) * 1000, 1),
    completedPerSecond: round((accepted / Math.max(1, spanMs)) * 1000, 1),
    accepted,
    phases: phases.map((phase) => ({
      accepted: phase.load.ok,
      acceptedPerSecond: phase.load.perSecond,
      completedPerSecond: round((phase.load.ok / Math.max(1, completionSpanMs(phase))) * 1000, 1),
    })),
    latencyMsOfFirstPhase: must(phases[0]).load.latencyMs,
    statuses,
    cpuMsPerRun: sharedCpuMs({ ...cpuMs, generator: generatorCpuMs }, served),
    redisPerRun: redisWorkPerOperation(NO_REDIS_WORK, redis, served),
  };
}

/** Async runs of Base64Encode over HTTPS keep-alive, with whatever workers are running now. */
async function serviceSide(context: ScenarioContext): Promise<Side> {
  const before = await runningCount(context);
  return {
    job: (durationMs, warmupMs) =>
      runJob(context, BASE64_ENCODE, { async: true, connections: THROUGHPUT_CONNECTIONS, durationMs, warmupMs, maxRequests: 500_000, body: BASE64_BODY }),
    drain: () => drainService(context, before),
  };
}

/** Raw BullMQ: add → a no-op processor on as many worker processes, same Redis, same concurrency. */
function rawBullmqSide(context: ScenarioContext): Side {
  return {
    job: (durationMs, warmupMs) => ({
      kind: 'bullmq-add',
      redisUrl: context.stack.redisUrl,
      prefix: BASELINE_PREFIX,
      queue: BASELINE_QUEUE,
      concurrency: THROUGHPUT_CONNECTIONS,
      durationMs,
      warmupMs,
      maxJobs: 500_000,
    }),
    drain: () => drainBaseline(context),
  };
}

/**
 * The floor of any HTTPS job service: the same requests, over the same TLS, to bare Hono whose
 * handler only queues the job (bench/https-producer-server.ts), run by the raw side's no-op workers.
 */
function httpsProducerSide(context: ScenarioContext): Side {
  return {
    job: (durationMs, warmupMs) => {
      const job = runJob(context, BASE64_ENCODE, {
        async: true,
        connections: THROUGHPUT_CONNECTIONS,
        durationMs,
        warmupMs,
        maxRequests: 500_000,
        body: BASE64_BODY,
      });
      return { ...job, origin: context.stack.httpsProducerOrigin };
    },
    drain: () => drainBaseline(context),
  };
}

async function warmUp(context: ScenarioContext, side: Side): Promise<void> {
  await runLoad(side.job(context.warmupMs));
  await side.drain();
}

/** The service alone, in one phase (worker scaling compares the service with itself). */
export async function measureServiceThroughput(context: ScenarioContext): Promise<Throughput> {
  const service = await serviceSide(context);
  await warmUp(context, service);
  return combinePhases([await measurePhase(context, service, context.durationMs, 'service')]);
}

/**
 * The service under each of `settings` (with a webhook and without, …) in mirrored alternating
 * rounds, `use` switching to a setting before each of its phases. Each setting is warmed up
 * first: what only it runs (a webhook's deliveries, their connections) is compiled and opened
 * before it is measured, where it made the first round's ratio the lowest of the four.
 */
export async function compareServiceSettings<S extends string>(
  context: ScenarioContext,
  settings: readonly S[],
  use: (setting: S) => Promise<void>,
): Promise<Record<S, Throughput>> {
  const service = await serviceSide(context);
  for (const setting of [...settings].reverse()) {
    await use(setting);
    await warmUp(context, service);
  }
  const rounds = await alternatingRounds(
    context,
    settings,
    async (setting, roundMs) => {
      await use(setting);
      return measurePhase(context, service, roundMs, setting, ROUND_WARMUP_MS);
    },
    { mirrored: true },
  );
  return Object.fromEntries(settings.map((setting) => [setting, combinePhases(rounds[setting])])) as Record<S, Throughput>;
}

export async function asyncThroughput(context: ScenarioContext): Promise<Row[]> {
  const sides = { service: await serviceSide(context), raw: rawBullmqSide(context), producer: httpsProducerSide(context) };
  await warmUp(context, sides.service);
  await warmUp(context, sides.raw);
  await warmUp(context, sides.producer);
  // In turns, like sync latency and GET: measured one after the other, the sides once saw the
  // machine at different speeds, and the ratio of a single run moved from 0.33 to 0.67.
  const rounds = await alternatingRounds(context, ['service', 'raw', 'producer'] as const, (side, roundMs) =>
    measurePhase(context, sides[side], roundMs, side, ROUND_WARMUP_MS),
  );
  const service = combinePhases(rounds.service);
  const raw = combinePhases(rounds.raw);
  const producer = combinePhases(rounds.producer);
  context.raw.asyncThroughput = { service, baseline: raw, httpsProducer: producer };
  const roundRatios = (of: Throughput, to: Throughput) =>
    of.phases.map((phase, i) => round(phase.completedPerSecond / (to.phases[i]?.completedPerSecond ?? Number.NaN), 2));
  const scenario = `1 async runs (${context.stack.workerCount()} workers)`;
  return [
    {
      scenario,
      figure: 'accepted',
      unit: '/s',
      value: service.acceptedPerSecond,
      baseline: { label: 'HTTPS producer', value: producer.acceptedPerSecond },
      details: {
        acceptLatencyMs: service.latencyMsOfFirstPhase,
        producerAcceptLatencyMs: producer.latencyMsOfFirstPhase,
        rawAddedPerSecond: raw.acceptedPerSecond,
        rawAddLatencyMs: raw.latencyMsOfFirstPhase,
        statuses: service.statuses,
        producerStatuses: producer.statuses,
      },
    },
    {
      scenario,
      figure: 'completed',
      unit: '/s',
      value: service.completedPerSecond,
      baseline: { label: 'HTTPS producer → no-op', value: producer.completedPerSecond },
      target: { kind: 'at-least-ratio', factor: 0.6 },
      details: {
        rounds: ROUNDS,
        roundRatios: roundRatios(service, producer),
        runs: service.accepted,
        producerJobs: producer.accepted,
        cpuMsPerRun: service.cpuMsPerRun,
        producerCpuMsPerJob: producer.cpuMsPerRun,
        redisPerRun: service.redisPerRun,
        producerRedisPerJob: producer.redisPerRun,
      },
    },
    {
      scenario,
      figure: 'completed',
      unit: '/s',
      value: service.completedPerSecond,
      baseline: { label: 'BullMQ no-op', value: raw.completedPerSecond },
      details: {
        roundRatios: roundRatios(service, raw),
        baselineJobs: raw.accepted,
        baselineCpuMsPerJob: raw.cpuMsPerRun,
        baselineRedisPerJob: raw.redisPerRun,
      },
    },
    {
      // No target: what one run costs the shard, the figure docs/scaling.md sizes a deployment by.
      scenario,
      figure: 'Redis CPU per run',
      unit: 'ms',
      value: service.cpuMsPerRun.redis ?? Number.NaN,
      baseline: { label: 'HTTPS producer per job', value: producer.cpuMsPerRun.redis ?? Number.NaN },
      details: {
        commands: service.redisPerRun.commands,
        scripts: service.redisPerRun.scripts,
        inputBytes: service.redisPerRun.inputBytes,
        outputBytes: service.redisPerRun.outputBytes,
        completedPerSecond: service.completedPerSecond,
      },
    },
    {
      scenario,
      figure: 'HTTPS producer completed',
      unit: '/s',
      value: producer.completedPerSecond,
      baseline: { label: 'BullMQ no-op', value: raw.completedPerSecond },
      details: { roundRatios: roundRatios(producer, raw) },
    },
  ];
}
