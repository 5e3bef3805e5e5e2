import { BASELINE_PREFIX, BASELINE_QUEUE } from '../bench-stack.ts';
import { summarize } from '../latency-summary.ts';
import type { LoadResult } from '../load-job.ts';
import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { alternatingRounds, ROUND_WARMUP_MS, ROUNDS } from './alternating-rounds.ts';
import { BASE64_BODY, BASE64_ENCODE, runJob, type ScenarioContext } from './scenario-context.ts';
import { must } from '@ces/testing';

/** One request at a time: latency, not throughput. Each side's samples are pooled over its rounds. */
const MAX_RUNS = 5_000;

export async function syncLatency(context: ScenarioContext): Promise<Row[]> {
  const job = (durationMs: number, warmupMs = 0) =>
    runJob(context, BASE64_ENCODE, {
      warmupMs,
      async: false,
      connections: 1,
      durationMs,
      maxRequests: MAX_RUNS,
      body: BASE64_BODY,
      executionDurations: true,
      keepSamples: true,
    });
  const baselineJob = (durationMs: number, warmupMs = 0) => ({
    kind: 'bullmq-sync' as const,
    warmupMs,
    redisUrl: context.stack.redisUrl,
    prefix: BASELINE_PREFIX,
    queue: BASELINE_QUEUE,
    durationMs,
    maxJobs: MAX_RUNS,
    keepSamples: true,
  });
  await runLoad(job(context.warmupMs));
  await runLoad(baselineJob(context.warmupMs));
  const { service: serviceRounds, baseline: baselineRounds } = await alternatingRounds(context, ['service', 'baseline'] as const, (side, roundMs) =>
    runLoad(side === 'service' ? job(roundMs, ROUND_WARMUP_MS) : baselineJob(roundMs, ROUND_WARMUP_MS)),
  );
  for (const [label, rounds] of [
    ['service', serviceRounds],
    ['baseline', baselineRounds],
  ] as const) {
    const error = rounds.find((r) => r.firstError)?.firstError;
    if (error) context.log(`  ${label}: ${error}`);
  }
  const service = pooled(serviceRounds);
  const baseline = pooled(baselineRounds);
  context.raw.syncLatency = {
    service,
    baseline,
    rounds: serviceRounds.map((r, i) => ({ serviceP50: r.latencyMs.p50, baselineP50: must(baselineRounds[i]).latencyMs.p50 })),
    serverSideDurationMsOfFirstRound: must(serviceRounds[0]).executionDurationMs,
  };

  const scenario = '2 sync run latency';
  return [
    {
      scenario,
      figure: 'p50',
      unit: 'ms',
      value: service.latencyMs.p50,
      baseline: { label: 'BullMQ add+wait', value: baseline.latencyMs.p50 },
      target: { kind: 'at-most-baseline-plus', amount: 2 },
      details: {
        runs: service.ok,
        rounds: ROUNDS,
        roundP50s: serviceRounds.map((r, i) => [r.latencyMs.p50, must(baselineRounds[i]).latencyMs.p50]),
        serverSideDurationMs: must(serviceRounds[0]).executionDurationMs,
      },
    },
    {
      scenario,
      figure: 'p99',
      unit: 'ms',
      value: service.latencyMs.p99,
      baseline: { label: 'BullMQ add+wait', value: baseline.latencyMs.p99 },
    },
  ];
}

/** One side's rounds as one result: counts added, latency percentiles over all samples. */
function pooled(rounds: LoadResult[]) {
  const samples = rounds.flatMap((r) => r.latencySamplesMs ?? []);
  return {
    ok: rounds.reduce((sum, r) => sum + r.ok, 0),
    count: rounds.reduce((sum, r) => sum + r.count, 0),
    latencyMs: summarize(samples),
  };
}
