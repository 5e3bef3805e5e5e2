import { BASELINE_PREFIX, BASELINE_QUEUE } from '../bench-stack.ts';
import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { BASE64_BODY, BASE64_ENCODE, runJob, type ScenarioContext } from './scenario-context.ts';

/** One request at a time: latency, not throughput. */
const MAX_RUNS = 5_000;

export async function syncLatency(context: ScenarioContext): Promise<Row[]> {
  const job = (durationMs: number) =>
    runJob(context, BASE64_ENCODE, { async: false, connections: 1, durationMs, maxRequests: MAX_RUNS, body: BASE64_BODY, executionDurations: true });
  await runLoad(job(context.warmupMs));
  const service = await runLoad(job(context.durationMs));
  if (service.firstError) context.log(`  service: ${service.firstError}`);

  const baselineJob = (durationMs: number) => ({
    kind: 'bullmq-sync' as const,
    redisUrl: context.stack.redisUrl,
    prefix: BASELINE_PREFIX,
    queue: BASELINE_QUEUE,
    durationMs,
    maxJobs: MAX_RUNS,
  });
  await runLoad(baselineJob(context.warmupMs));
  const baseline = await runLoad(baselineJob(context.durationMs));
  if (baseline.firstError) context.log(`  baseline: ${baseline.firstError}`);
  context.raw.syncLatency = { service, baseline };

  const scenario = '2 sync run latency';
  return [
    {
      scenario,
      figure: 'p50',
      unit: 'ms',
      value: service.latencyMs.p50,
      baseline: { label: 'BullMQ add+wait', value: baseline.latencyMs.p50 },
      target: { kind: 'at-most-baseline-plus', amount: 2 },
      details: { runs: service.ok, serverSideDurationMs: service.executionDurationMs },
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
