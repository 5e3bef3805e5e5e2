import { cpuMsPerOperation, cpuSnapshot } from '../cpu-usage.ts';
import { round } from '../latency-summary.ts';
import type { LoadJob, LoadResult } from '../load-job.ts';
import { redisWorkPerOperation, redisWorkSnapshot, type RedisWorkPerOperation } from '../redis-work.ts';
import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { BASE64_BODY, BASE64_ENCODE, NO_OP_STEP_COUNT, NO_OP_STEPS, runJob, type ScenarioContext } from './scenario-context.ts';
import { must } from '@ces/testing';

/** A phase with what Redis spent on each of its runs: CPU ms and its commands and bytes. */
async function loadWithRedisCost(
  context: ScenarioContext,
  job: LoadJob,
): Promise<{ load: LoadResult; redisCpuMsPerRun: number; redisPerRun: RedisWorkPerOperation }> {
  const pids = { redis: must(context.stack.pids().redis) };
  const cpuBefore = cpuSnapshot(pids);
  const workBefore = await redisWorkSnapshot(context.stack.redis);
  const load = await runLoad(job);
  const redisPerRun = redisWorkPerOperation(workBefore, await redisWorkSnapshot(context.stack.redis), load.ok);
  return { load, redisCpuMsPerRun: cpuMsPerOperation(cpuBefore, cpuSnapshot(pids), Math.max(1, load.ok)).redis ?? Number.NaN, redisPerRun };
}

/**
 * Cost per step: NoOpSteps (fifty steps that do nothing) run one at a time; each execution's own
 * end − start (as the service recorded it) divided by fifty. That figure also carries the fixed
 * cost of a run (queue, claim, finish); the marginal cost, against one-step Base64Encode, is kept too.
 * Redis's CPU per run of each, one synchronous run at a time, gives what a step and a synchronous
 * run cost the shard (an upper figure: one run at a time, Redis wakes for every command).
 */
export async function stepCost(context: ScenarioContext): Promise<Row[]> {
  const job = (choreo: string, body: string | undefined, durationMs: number) =>
    runJob(context, choreo, { async: false, connections: 1, durationMs, maxRequests: 2_000, executionDurations: true, ...(body ? { body } : {}) });
  await runLoad(job(NO_OP_STEPS, undefined, context.warmupMs));
  const manyPhase = await loadWithRedisCost(context, job(NO_OP_STEPS, undefined, context.durationMs));
  const many = manyPhase.load;
  if (many.firstError) context.log(`  ${many.firstError}`);
  const onePhase = await loadWithRedisCost(context, job(BASE64_ENCODE, BASE64_BODY, Math.min(context.durationMs, 3_000)));
  const one = onePhase.load;
  const redisCpuMsPerStep = round((manyPhase.redisCpuMsPerRun - onePhase.redisCpuMsPerRun) / (NO_OP_STEP_COUNT - 1), 4);
  context.raw.stepCost = {
    many,
    one,
    redis: { noOpRun: manyPhase.redisPerRun, syncRun: onePhase.redisPerRun, noOpRunCpuMs: manyPhase.redisCpuMsPerRun, syncRunCpuMs: onePhase.redisCpuMsPerRun },
  };
  const perStep = round(must(many.executionDurationMs).p50 / NO_OP_STEP_COUNT, 3);
  const marginal = round((must(many.executionDurationMs).p50 - must(one.executionDurationMs).p50) / (NO_OP_STEP_COUNT - 1), 3);
  return [
    {
      scenario: '4 cost per step',
      figure: `run of ${NO_OP_STEP_COUNT} no-op steps ÷ ${NO_OP_STEP_COUNT}`,
      unit: 'ms',
      value: perStep,
      target: { kind: 'at-most', limit: 0.5 },
      details: {
        marginalPerStepMs: marginal,
        noOpRunDurationMs: many.executionDurationMs,
        oneStepRunDurationMs: one.executionDurationMs,
        runs: many.ok,
      },
    },
    {
      scenario: '4 cost per step',
      figure: 'Redis CPU per step (marginal)',
      unit: 'ms',
      value: redisCpuMsPerStep,
      details: {
        syncRunRedisCpuMs: onePhase.redisCpuMsPerRun,
        syncRunRedis: onePhase.redisPerRun,
        noOpRunRedisCpuMs: manyPhase.redisCpuMsPerRun,
        noOpRunRedis: manyPhase.redisPerRun,
      },
    },
  ];
}
