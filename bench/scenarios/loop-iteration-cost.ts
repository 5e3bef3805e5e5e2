import { round } from '../latency-summary.ts';
import { redisInfo } from '../redis-info.ts';
import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { runJob, type ScenarioContext } from './scenario-context.ts';

export const NO_OP_LOOP = '/Library/Utilities/Development/NoOpLoop';

/** Loop sizes measured, with the runs made of each (fewer of the long ones). */
const SIZES = [
  { iterations: 100, runs: 20 },
  { iterations: 1_000, runs: 6 },
  { iterations: 10_000, runs: 3 },
];

/**
 * Cost per checkpointed loop iteration: NoOpLoop (one no-op step per iteration, each iteration
 * recorded in Redis before the next starts) run one at a time at 100, 1,000 and 10,000
 * iterations; each run's own end − start (as the service recorded it) divided by its iterations.
 * Redis's input bytes and script calls over each phase, divided by the iterations run, show what a
 * checkpoint of an iteration costs Redis: constant when nothing earlier is written again.
 */
export async function loopIterationCost(context: ScenarioContext): Promise<Row[]> {
  const body = (iterations: number) => JSON.stringify({ inputs: [{ name: 'Iterations', value: String(iterations) }] });
  const job = (iterations: number, runs: number) =>
    runJob(context, NO_OP_LOOP, { async: false, connections: 1, durationMs: 300_000, maxRequests: runs, executionDurations: true, body: body(iterations) });
  await runLoad(job(1_000, 3));

  const rows: Row[] = [];
  const raw: Record<string, unknown> = {};
  for (const { iterations, runs } of SIZES) {
    const before = await redisCounters(context);
    const result = await runLoad(job(iterations, runs), 900_000);
    const after = await redisCounters(context);
    if (result.firstError) context.log(`  ${result.firstError}`);
    const completed = result.ok;
    const iterationsRun = completed * iterations;
    const durations = result.executionDurationMs;
    if (durations === undefined || completed === 0) throw new Error(`no run of ${iterations} iterations completed`);
    const perIteration = round(durations.p50 / iterations, 4);
    const bytesPerIteration = round((after.inputBytes - before.inputBytes) / iterationsRun, 1);
    const scriptCallsPerIteration = round((after.scriptCalls - before.scriptCalls) / iterationsRun, 3);
    raw[String(iterations)] = { result, bytesPerIteration, scriptCallsPerIteration };
    rows.push({
      scenario: '9 cost per loop iteration',
      figure: `run of ${iterations.toLocaleString('en')} no-op iterations ÷ ${iterations.toLocaleString('en')}`,
      unit: 'ms',
      value: perIteration,
      target: { kind: 'at-most', limit: 0.5 },
      details: {
        runs: completed,
        runDurationMs: durations,
        redisInputBytesPerIteration: bytesPerIteration,
        redisScriptCallsPerIteration: scriptCallsPerIteration,
      },
    });
    rows.push({
      scenario: '9 Redis bytes per iteration checkpoint',
      figure: `Redis input bytes ÷ iterations, ${iterations.toLocaleString('en')}-iteration runs`,
      unit: 'B',
      value: bytesPerIteration,
      details: { scriptCallsPerIteration },
    });
  }
  context.raw.loopIterationCost = raw;
  return rows;
}

/** Redis's running totals of input bytes and script calls (EVALSHA and EVAL). */
async function redisCounters(context: ScenarioContext): Promise<{ inputBytes: number; scriptCalls: number }> {
  const stats = await redisInfo(context.stack.redis, 'stats');
  const commands = await redisInfo(context.stack.redis, 'commandstats');
  const calls = (name: string) => Number(/calls=(\d+)/.exec(commands.get(`cmdstat_${name}`) ?? '')?.[1] ?? 0);
  return { inputBytes: Number(stats.get('total_net_input_bytes') ?? 0), scriptCalls: calls('evalsha') + calls('eval') };
}
