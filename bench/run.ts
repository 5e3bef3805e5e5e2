// `npm run bench`: starts its own Redis, API, workers and baselines on 127.0.0.1, runs every
// scenario with a load generator in a separate process, prints a table and writes the same as
// JSON under bench/results/. This entry point is the only bench file that reads the environment:
//   BENCH_SECONDS  measured seconds per phase (default 8)
//   BENCH_ONLY     scenario numbers to run, e.g. "1,3" (default: all)
//   BENCH_PROFILE  any of "api", "worker", "producer" (the HTTPS producer baseline), comma-separated:
//                  run those processes with --cpu-prof
//   BENCH_HTTP_CLIENT  "raw" (default: the minimal keep-alive client) or "undici"
//   BENCH_SCHEDULES  scenario 12's schedules every minute (default 10000, the target's)
//   BENCH_EVENT_STREAMS  scenario 13's open run events streams (default 1000, the target's)
//   BENCH_CONSOLE_RUNS, BENCH_CONSOLE_PAGES  scenario 15's retained runs and open run pages (default
//                  100000 and 500, the target's)
//   BENCH_WAIT_RUNS, BENCH_WAIT_SECONDS  scenario 10's runs and the length of their waits (default
//                  10000 and 600, the target's): fewer and shorter for a quick look while changing it
//   BENCH_REDRIVE_ITERATIONS  scenario 16's loop, which fails at 90 % of it (default 10000)
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { startBenchStack, type BenchStack } from './bench-stack.ts';
import { evaluate, formatMarkdown, formatTable, type Row } from './report.ts';
import { asyncThroughput } from './scenarios/async-throughput.ts';
import { cancellation } from './scenarios/cancellation.ts';
import { codeAndExpressions } from './scenarios/code-and-expressions.ts';
import { consolePages } from './scenarios/console-pages.ts';
import { durableWaits } from './scenarios/durable-waits.ts';
import { loopIterationCost } from './scenarios/loop-iteration-cost.ts';
import { pureLoopCost } from './scenarios/pure-loop-cost.ts';
import { readThroughput } from './scenarios/read-throughput.ts';
import { redriveStart } from './scenarios/redrive-start.ts';
import { redisClusterBeside } from './scenarios/redis-cluster.ts';
import { shardStoreCost } from './scenarios/shard-store-cost.ts';
import { replicaAcks } from './scenarios/replica-acks.ts';
import { retainedMemory } from './scenarios/retained-memory.ts';
import { runEvents } from './scenarios/run-events.ts';
import { scheduleTicks } from './scenarios/schedule-ticks.ts';
import { webhookDeliveries } from './scenarios/webhook-deliveries.ts';
import type { Scenario, ScenarioContext } from './scenarios/scenario-context.ts';
import { stepCost } from './scenarios/step-cost.ts';
import { syncLatency } from './scenarios/sync-latency.ts';
import { workerScaling } from './scenarios/worker-scaling.ts';

const root = resolve(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? '8');
if (!Number.isFinite(seconds) || seconds < 1 || seconds > 120) {
  process.stderr.write('bench: BENCH_SECONDS must be a number of seconds from 1 to 120\n');
  process.exit(1);
}
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((s) => Number(s.trim()))) : undefined;
const httpClient = process.env.BENCH_HTTP_CLIENT ?? 'raw';
if (httpClient !== 'raw' && httpClient !== 'undici') {
  process.stderr.write('bench: BENCH_HTTP_CLIENT must be "raw" or "undici"\n');
  process.exit(1);
}
const waitRuns = Number(process.env.BENCH_WAIT_RUNS ?? '10000');
const waitSeconds = Number(process.env.BENCH_WAIT_SECONDS ?? '600');
if (!Number.isInteger(waitRuns) || waitRuns < 1 || !Number.isFinite(waitSeconds) || waitSeconds < 10) {
  process.stderr.write('bench: BENCH_WAIT_RUNS must be a whole number from 1 and BENCH_WAIT_SECONDS a number of seconds from 10\n');
  process.exit(1);
}
const scheduleCount = Number(process.env.BENCH_SCHEDULES ?? '10000');
if (!Number.isInteger(scheduleCount) || scheduleCount < 1) {
  process.stderr.write('bench: BENCH_SCHEDULES must be a whole number from 1\n');
  process.exit(1);
}
const eventStreams = Number(process.env.BENCH_EVENT_STREAMS ?? '1000');
if (!Number.isInteger(eventStreams) || eventStreams < 20) {
  process.stderr.write('bench: BENCH_EVENT_STREAMS must be a whole number from 20\n');
  process.exit(1);
}
const consoleRuns = Number(process.env.BENCH_CONSOLE_RUNS ?? '100000');
const consoleOpenPages = Number(process.env.BENCH_CONSOLE_PAGES ?? '500');
if (!Number.isInteger(consoleRuns) || consoleRuns < 1 || !Number.isInteger(consoleOpenPages) || consoleOpenPages < 1) {
  process.stderr.write('bench: BENCH_CONSOLE_RUNS and BENCH_CONSOLE_PAGES must be whole numbers from 1\n');
  process.exit(1);
}
const redriveIterations = Number(process.env.BENCH_REDRIVE_ITERATIONS ?? '10000');
if (!Number.isInteger(redriveIterations) || redriveIterations < 10) {
  process.stderr.write('bench: BENCH_REDRIVE_ITERATIONS must be a whole number from 10\n');
  process.exit(1);
}
const profiled = new Set(
  (process.env.BENCH_PROFILE ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

// Run order: latency-sensitive scenarios first, on a quiet Redis; the memory figure after every
// throughput run (BullMQ's event stream is at its cap by then); worker scaling last, as it restarts workers.
const SCENARIOS: { number: number; name: string; run: Scenario }[] = [
  { number: 2, name: 'sync run latency', run: syncLatency },
  { number: 4, name: 'cost per step', run: stepCost },
  { number: 5, name: 'cancellation latency', run: cancellation },
  { number: 3, name: 'GET execution throughput', run: readThroughput },
  { number: 1, name: 'async run throughput', run: asyncThroughput },
  { number: 6, name: 'Redis memory per retained execution', run: retainedMemory },
  { number: 7, name: 'throughput with 1, 2 and 4 workers', run: workerScaling },
  { number: 8, name: 'code step and expression cost', run: codeAndExpressions },
  { number: 9, name: 'cost per checkpointed loop iteration', run: loopIterationCost },
  { number: 11, name: 'pure loop against one code step', run: pureLoopCost },
  { number: 13, name: 'run events to 1,000 open streams on one API', run: runEvents(eventStreams) },
  { number: 10, name: '10,000 runs in durable waits on one worker', run: durableWaits },
  { number: 12, name: 'schedules every minute on two workers', run: scheduleTicks(scheduleCount) },
  { number: 14, name: 'webhook on every run: throughput beside none, end to receipt', run: webhookDeliveries },
  { number: 15, name: 'console pages', run: consolePages({ retainedRuns: consoleRuns, openPages: consoleOpenPages }) },
  { number: 16, name: 'starting a redrive of a long loop that failed', run: redriveStart(redriveIterations) },
  { number: 17, name: 'the price of replica acknowledgement', run: replicaAcks },
  { number: 18, name: 'a six-node Redis Cluster (one shard, three shards) beside the single Redis', run: redisClusterBeside },
  { number: 19, name: 'three shards beside one: Redis commands and CPU per run, the store alone', run: shardStoreCost },
];

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const workDir = join(tmpdir(), `ces-bench-${stamp}`);
const log = (message: string) => process.stdout.write(`[bench] ${message}\n`);

function redisVersion(): string {
  try {
    return execFileSync('redis-server', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
  freeMemoryGiB: Math.round((freemem() / 1024 ** 3) * 10) / 10,
  platform: `${platform()} ${release()}`,
  node: process.version,
  redis: redisVersion(),
  loadAverageAtStart: loadavg().map((value) => Math.round(value * 100) / 100),
};
log(`${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}, load ${machine.loadAverageAtStart.join(' ')}`);
log(`${seconds} s per measured phase; logs${profiled.size > 0 ? ' and CPU profiles' : ''} in ${workDir}`);

let stack: BenchStack | undefined;
let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) return;
  interrupted = true;
  log('interrupted; stopping');
  void (stack?.close() ?? Promise.resolve()).finally(() => process.exit(130));
});

const rows: Row[] = [];
const raw: Record<string, unknown> = {};
const startedAt = Date.now();
try {
  const stackOptions = {
    root,
    logDir: workDir,
    workers: 2,
    baselineWorkers: 2,
    profile: { api: profiled.has('api'), worker: profiled.has('worker'), httpsProducer: profiled.has('producer'), dir: join(workDir, 'profiles') },
  };
  stack = await startBenchStack(stackOptions);
  log(`API on ${stack.origin}, bare Hono on ${stack.bareHonoOrigin}, HTTPS producer on ${stack.httpsProducerOrigin}, Redis on ${stack.redisUrl} (no AOF)`);
  const context: ScenarioContext = {
    stack,
    durationMs: seconds * 1000,
    warmupMs: Math.min(2_000, seconds * 250),
    httpClient,
    durableWaits: { runs: waitRuns, waitMs: waitSeconds * 1000 },
    log,
    raw,
    startClusterStack: (clusterPrimaries, queueShards = 1, serviceEnv = {}) =>
      startBenchStack({
        ...stackOptions,
        logDir: join(workDir, `cluster-${clusterPrimaries}-shards-${queueShards}${serviceEnv.REDIS_REPLICA_ACKS ? '-acked' : ''}`),
        baselineWorkers: 0,
        clusterPrimaries,
        queueShards,
        serviceEnv,
      }),
  };
  for (const scenario of SCENARIOS) {
    if (only && !only.has(scenario.number)) continue;
    if (interrupted) break;
    log(`scenario ${scenario.number}: ${scenario.name}`);
    const started = Date.now();
    rows.push(...(await scenario.run(context)));
    log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
} catch (error) {
  process.stderr.write(`[bench] failed: ${(error as Error).stack ?? String(error)}\n`);
  await stack?.close();
  process.exit(1);
}
await stack.close();

const evaluated = rows.sort((a, b) => a.scenario.localeCompare(b.scenario, 'en', { numeric: true })).map(evaluate);
process.stdout.write(`\n${formatTable(evaluated)}\n\n`);
const outFile = join(root, 'bench', 'results', `${stamp}.json`);
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(
  outFile,
  `${JSON.stringify(
    {
      startedAt: new Date(startedAt).toISOString(),
      durationSeconds: Math.round((Date.now() - startedAt) / 1000),
      settings: { benchSeconds: seconds, only: only ? [...only] : 'all', profiled: [...profiled], httpClient, redisAppendOnly: false },
      machine: { ...machine, loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100) },
      rows: evaluated,
      markdown: formatMarkdown(evaluated),
      raw,
    },
    null,
    2,
  )}\n`,
);
const failed = evaluated.filter((row) => row.pass === false).length;
log(`${evaluated.filter((row) => row.pass === true).length} targets met, ${failed} missed; written to ${outFile}`);
log(`total ${Math.round((Date.now() - startedAt) / 1000)} s`);
process.exit(0);
