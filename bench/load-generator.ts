// The load generator: a process of its own, so that the load it makes is not served by the same
// event loop it measures. It takes one JSON job as its argument, runs it against 127.0.0.1 (HTTPS
// keep-alive for the service and bare Hono, Redis for the raw BullMQ baselines), stops by itself
// at the job's time or count limit, and prints one JSON result line.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { EXECUTION_JOB_OPTIONS } from '@ces/store';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { summarize } from './latency-summary.ts';
import { encodeRequest, openRawPool } from './raw-https-client.ts';
import type { BullmqAddJob, BullmqSyncJob, CancelJob, HttpLoadJob, LoadJob, LoadResult } from './load-job.ts';
import { must } from '@ces/testing';

function tally(statuses: Record<string, number>, key: string | number) {
  statuses[key] = (statuses[key] ?? 0) + 1;
}

/** One operation's outcome: how it is tallied, how long it took, and whether it counts as done. */
interface Sample {
  status: string | number;
  latencyMs?: number;
  ok: boolean;
  error?: string;
}

interface LoopTotals {
  count: number;
  ok: number;
  startedAt: number;
  elapsedMs: number;
  latencies: number[];
  statuses: Record<string, number>;
  firstError: string | undefined;
  /** Operations of the unrecorded warm-up. */
  warmupCount: number;
}

/**
 * Closed loop: each of `lanes` sends its next operation when its last one is done, until the count
 * or the time runs out. A sample that throws is tallied as an error. With `warmupMs`, the loop first
 * runs that long unrecorded (`sample` is told), so that this process's JIT and connections are warm.
 * With `perSecond`, the n-th operation is not sent before n / perSecond seconds from the start.
 */
async function closedLoop(
  limits: { lanes: number; maxCount: number; durationMs: number; warmupMs?: number; perSecond?: number },
  sample: (recording: boolean) => Promise<Sample>,
): Promise<LoopTotals> {
  const warmupCount = limits.warmupMs ? (await closedLoop({ ...limits, durationMs: limits.warmupMs, warmupMs: 0 }, () => sample(false))).count : 0;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let count = 0;
  let ok = 0;
  let firstError: string | undefined;
  const startedAt = Date.now();
  const t0 = performance.now();
  const deadline = t0 + limits.durationMs;
  async function lane() {
    while (count < limits.maxCount && performance.now() < deadline) {
      count += 1;
      if (limits.perSecond !== undefined) {
        const due = t0 + ((count - 1) * 1000) / limits.perSecond;
        const early = due - performance.now();
        if (early > 0) await new Promise((resolve) => setTimeout(resolve, early));
        if (performance.now() >= deadline) break;
      }
      try {
        const outcome = await sample(true);
        tally(statuses, outcome.status);
        if (outcome.latencyMs !== undefined) latencies.push(outcome.latencyMs);
        if (outcome.ok) ok += 1;
        else firstError ??= outcome.error;
      } catch (error) {
        tally(statuses, 'error');
        firstError ??= (error as Error).message;
      }
    }
  }
  await Promise.all(Array.from({ length: limits.lanes }, lane));
  return { count, ok, startedAt, elapsedMs: performance.now() - t0, latencies, statuses, firstError, warmupCount };
}

function result(kind: LoadJob['kind'], totals: LoopTotals, keepSamples = false): LoadResult {
  return {
    kind,
    count: totals.count,
    ok: totals.ok,
    startedAt: totals.startedAt,
    endedAt: totals.startedAt + Math.round(totals.elapsedMs),
    elapsedMs: Math.round(totals.elapsedMs),
    perSecond: totals.elapsedMs > 0 ? Math.round((totals.ok / totals.elapsedMs) * 1000 * 10) / 10 : 0,
    latencyMs: summarize(totals.latencies),
    ...(keepSamples ? { latencySamplesMs: totals.latencies.map((ms) => Math.round(ms * 1000) / 1000) } : {}),
    statuses: totals.statuses,
    ...(totals.warmupCount > 0 ? { warmupCount: totals.warmupCount } : {}),
    ...(totals.firstError !== undefined ? { firstError: totals.firstError } : {}),
  };
}

function pool(origin: string, caFile: string, connections: number): Pool {
  return new Pool(origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    connect: { ca: readFileSync(caFile, 'utf8'), servername: 'localhost' },
  });
}

/** Sends one request and reads the whole answer. */
type HttpCall = () => Promise<{ statusCode: number; body: string }>;

/** The client a job asks for: the minimal one by default, undici to compare. */
async function httpClient(job: HttpLoadJob): Promise<{ call: HttpCall; close(): Promise<void> }> {
  if (job.client === 'undici') {
    const client = pool(job.origin, job.caFile, job.connections);
    const options = {
      method: job.request.method,
      path: job.request.path,
      headers: job.request.headers,
      ...(job.request.body !== undefined ? { body: job.request.body } : {}),
    };
    return {
      call: async () => {
        const response = await client.request(options);
        return { statusCode: response.statusCode, body: await response.body.text() };
      },
      close: () => client.close(),
    };
  }
  const client = await openRawPool({ origin: job.origin, ca: readFileSync(job.caFile, 'utf8'), servername: 'localhost', size: job.connections });
  const bytes = encodeRequest(job.request, new URL(job.origin).host);
  return {
    call: () => client.request(bytes),
    close: async () => client.close(),
  };
}

/** Requests over keep-alive HTTPS connections, one lane per connection. */
async function runHttp(job: HttpLoadJob): Promise<LoadResult> {
  const client = await httpClient(job);
  const durations: number[] = [];
  const totals = await closedLoop(
    {
      lanes: job.connections,
      maxCount: job.maxRequests,
      durationMs: job.durationMs,
      warmupMs: job.warmupMs ?? 0,
      ...(job.perSecond !== undefined ? { perSecond: job.perSecond } : {}),
    },
    async (recording) => {
      const start = performance.now();
      const response = await client.call();
      const text = response.body;
      const latencyMs = performance.now() - start;
      if (!job.okStatuses.includes(response.statusCode)) {
        return { status: response.statusCode, latencyMs, ok: false, error: `HTTP ${response.statusCode}: ${text.slice(0, 300)}` };
      }
      if (job.executionDurations && recording) {
        const execution = (JSON.parse(text) as { execution: { starttime: string; endtime?: string } }).execution;
        if (execution.endtime) durations.push(Number(execution.endtime) - Number(execution.starttime));
      }
      return { status: response.statusCode, latencyMs, ok: true };
    },
  );
  await client.close();
  return {
    ...result('http', totals, job.keepSamples),
    ...(job.executionDurations ? { executionDurationMs: summarize(durations) } : {}),
  };
}

function redisFor(url: string) {
  return new Redis(url, { maxRetriesPerRequest: null });
}

/** The same job shape and options the service queues: its id as job id, nothing else in the data. */
function addJob(queue: Queue, id: string) {
  return queue.add('run', { executionId: id }, { ...EXECUTION_JOB_OPTIONS, jobId: id });
}

async function runBullmqAdd(job: BullmqAddJob): Promise<LoadResult> {
  const connection = redisFor(job.redisUrl);
  const queue = new Queue(job.queue, { connection, prefix: job.prefix });
  await queue.waitUntilReady();
  const totals = await closedLoop({ lanes: job.concurrency, maxCount: job.maxJobs, durationMs: job.durationMs }, async () => {
    const start = performance.now();
    await addJob(queue, randomBytes(16).toString('hex'));
    return { status: 'added', latencyMs: performance.now() - start, ok: true };
  });
  await queue.close();
  connection.disconnect();
  return result('bullmq-add', totals);
}

async function runBullmqSync(job: BullmqSyncJob): Promise<LoadResult> {
  const connection = redisFor(job.redisUrl);
  const queue = new Queue(job.queue, { connection, prefix: job.prefix });
  const eventsConnection = redisFor(job.redisUrl);
  // Read events from the stream's current end, not from "$" at whatever moment the reader's first
  // XREAD goes out: a job that finishes before that would otherwise never be heard of.
  const [last] = await connection.xrevrange(must(queue.keys.events), '+', '-', 'COUNT', 1);
  const queueEvents = new QueueEvents(job.queue, { connection: eventsConnection, prefix: job.prefix, lastEventId: last?.[0] ?? '0-0' });
  await Promise.all([queue.waitUntilReady(), queueEvents.waitUntilReady()]);
  const totals = await closedLoop({ lanes: 1, maxCount: job.maxJobs, durationMs: job.durationMs, warmupMs: job.warmupMs ?? 0 }, async () => {
    const start = performance.now();
    const added = await addJob(queue, randomBytes(16).toString('hex'));
    await added.waitUntilFinished(queueEvents, 30_000).catch((error: Error) => {
      // removeOnComplete: a job that finished before the check is already gone, which BullMQ
      // reports as a missing key. Gone means completed here; anything else is a real failure.
      if (!/Missing key for job/.test(error.message)) throw error;
    });
    return { status: 'finished', latencyMs: performance.now() - start, ok: true };
  });
  await queueEvents.close();
  await queue.close();
  connection.disconnect();
  eventsConnection.disconnect();
  return result('bullmq-sync', totals, job.keepSamples);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One sample: start Countdown (long waits), wait until a worker holds it, let it get into its
 * wait, DELETE it, then read when it ended. The figure is `endtime − DELETE sent`, less the part of
 * the current step that was still to run when it did run to its end (none when the wait was cut short).
 */
/** The parts of the service's answers that the cancel job reads. */
interface CancelJobAnswer {
  id?: string;
  execution: { host: string; status: string; endtime: string | number };
  output?: { CompletedSteps?: string };
}

async function runCancel(job: CancelJob): Promise<LoadResult> {
  const client = pool(job.origin, job.caFile, 2);
  const call = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: string) => {
    const response = await client.request({
      method,
      path,
      headers: body !== undefined ? { ...job.headers, 'content-type': 'application/json' } : job.headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await response.body.text();
    return { status: response.statusCode, json: () => JSON.parse(text) as CancelJobAnswer, text };
  };
  const cancelLatencies: number[] = [];
  let interrupted = 0;
  const body = JSON.stringify({ inputs: [{ name: 'StepMilliseconds', value: String(job.stepMilliseconds) }] });
  const deadline = performance.now() + job.durationMs;

  const totals = await closedLoop({ lanes: 1, maxCount: job.maxSamples, durationMs: job.durationMs }, async () => {
    const started = await call('POST', `${job.choreoPath}?mode=async`, body);
    if (started.status !== 202) throw new Error(`run answered ${started.status}: ${started.text.slice(0, 200)}`);
    const id = started.json().id as string;
    const statusPath = `/service-api/1.0/choreo-executions/${id}`;
    let takenAt = 0;
    while (takenAt === 0) {
      if (performance.now() > deadline + 10_000) throw new Error('no worker took the run');
      const execution = (await call('GET', statusPath)).json().execution;
      if (execution.host !== '') takenAt = Date.now();
      else await sleep(2);
    }
    // Somewhere inside the first wait, not at its very start.
    await sleep(10 + Math.random() * 40);
    const sentAt = Date.now();
    const sentPerf = performance.now();
    const deleted = await call('DELETE', statusPath);
    const latencyMs = performance.now() - sentPerf;
    if (deleted.status !== 204)
      return { status: deleted.status, latencyMs, ok: false, error: `DELETE answered ${deleted.status}: ${deleted.text.slice(0, 200)}` };
    let ended: CancelJobAnswer | undefined;
    while (!ended) {
      if (performance.now() > deadline + 20 * job.stepMilliseconds) throw new Error('the run did not end after DELETE');
      const answer = (await call('GET', `${statusPath}?view=outputs`)).json();
      if (answer.execution.status !== 'RUNNING') ended = answer;
      else await sleep(10);
    }
    if (ended.execution.status !== 'TERMINATED_MANUALLY') throw new Error(`ended as ${ended.execution.status}`);
    const completedSteps = Number(ended.output?.CompletedSteps ?? 0);
    // Each completed step waited stepMilliseconds from about takenAt; what ran past the DELETE was owed.
    const remainingStepMs = completedSteps > 0 ? Math.max(0, takenAt + completedSteps * job.stepMilliseconds - sentAt) : 0;
    if (completedSteps === 0) interrupted += 1;
    cancelLatencies.push(Number(ended.execution.endtime) - sentAt - remainingStepMs);
    return { status: deleted.status, latencyMs, ok: true };
  });
  await client.close();
  return {
    ...result('cancel', totals),
    cancelLatencyMs: summarize(cancelLatencies),
    interruptedMidStep: interrupted,
  };
}

const job = JSON.parse(process.argv[2] ?? '{}') as LoadJob;
const runners: { [K in LoadJob['kind']]: (job: Extract<LoadJob, { kind: K }>) => Promise<LoadResult> } = {
  http: runHttp,
  'bullmq-add': runBullmqAdd,
  'bullmq-sync': runBullmqSync,
  cancel: runCancel,
};
const runner = runners[job.kind] as ((job: LoadJob) => Promise<LoadResult>) | undefined;
if (!runner) {
  process.stderr.write(`load-generator: unknown job kind ${String(job.kind)}\n`);
  process.exit(2);
}
const outcome = await runner(job);
const cpu = process.cpuUsage();
process.stdout.write(`${JSON.stringify({ ...outcome, generatorCpuMs: Math.round((cpu.user + cpu.system) / 1000) })}\n`);
process.exit(0);
