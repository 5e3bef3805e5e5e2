/**
 * What the orchestrator asks of the load generator process, and what it answers: one JSON job in,
 * one JSON result out. Every job is bounded both in time and in count, so a generator always stops
 * by itself.
 */

export interface HttpRequestSpec {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Closed loop over HTTPS keep-alive: `connections` requests in flight, each sent when the last ended. */
export interface HttpLoadJob {
  kind: 'http';
  origin: string;
  caFile: string;
  connections: number;
  durationMs: number;
  maxRequests: number;
  request: HttpRequestSpec;
  /** Statuses that count as success. */
  okStatuses: number[];
  /** Also collect `execution.endtime - execution.starttime` from each JSON answer. */
  executionDurations?: boolean;
  /** Also return every latency, to merge the samples of several rounds. */
  keepSamples?: boolean;
  /** Run this long first, unrecorded (a fresh generator's JIT and connections are cold). */
  warmupMs?: number;
  /** At most this many requests a second, spread evenly (the lanes bound how many are in flight); absent: as fast as answered. */
  perSecond?: number;
  /** The HTTP client: the minimal one (default), or undici for comparison (BENCH_HTTP_CLIENT). */
  client?: HttpClientKind;
}

export type HttpClientKind = 'raw' | 'undici';

/** Raw BullMQ producer: `concurrency` adds in flight. */
export interface BullmqAddJob {
  kind: 'bullmq-add';
  redisUrl: string;
  prefix: string;
  queue: string;
  concurrency: number;
  durationMs: number;
  maxJobs: number;
}

/** Raw BullMQ round trip, one at a time: add, then job.waitUntilFinished(queueEvents). */
export interface BullmqSyncJob {
  kind: 'bullmq-sync';
  redisUrl: string;
  prefix: string;
  queue: string;
  durationMs: number;
  maxJobs: number;
  keepSamples?: boolean;
  warmupMs?: number;
}

/** Start a long run, DELETE it mid-step, and see when it ended. One sample at a time. */
export interface CancelJob {
  kind: 'cancel';
  origin: string;
  caFile: string;
  headers: Record<string, string>;
  /** Path of the Countdown Choreo under the API base. */
  choreoPath: string;
  stepMilliseconds: number;
  durationMs: number;
  maxSamples: number;
}

export type LoadJob = HttpLoadJob | BullmqAddJob | BullmqSyncJob | CancelJob;

export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface LoadResult {
  kind: LoadJob['kind'];
  /** Operations attempted, and those that succeeded. */
  count: number;
  ok: number;
  /** Wall-clock epoch ms of the first send and of the last answer. */
  startedAt: number;
  endedAt: number;
  elapsedMs: number;
  /** Successful operations per second over the elapsed time. */
  perSecond: number;
  latencyMs: LatencySummary;
  /** Operations of the unrecorded warm-up (warmupMs), which the process's CPU time includes. */
  warmupCount?: number;
  /** Every latency, when the job asked for them (keepSamples). */
  latencySamplesMs?: number[];
  statuses: Record<string, number>;
  /** Server-side durations (end − start of each execution) when asked for. */
  executionDurationMs?: LatencySummary;
  /** Cancellation: DELETE sent → execution ended, less any remaining step time that was waited. */
  cancelLatencyMs?: LatencySummary;
  /** Cancellation samples whose current step was cut short (rather than run to its end). */
  interruptedMidStep?: number;
  /** CPU the load generator itself used (user + system), ms. */
  generatorCpuMs?: number;
  firstError?: string;
}
