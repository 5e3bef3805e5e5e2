import type { BenchStack } from '../bench-stack.ts';
import { until } from '../bench-stack.ts';
import type { HttpClientKind, HttpLoadJob } from '../load-job.ts';
import type { Row } from '../report.ts';

export const API_BASE = '/service-api/1.0';
export const BASE64_ENCODE = '/Library/Utilities/Encoding/Base64Encode';
export const NO_OP_STEPS = '/Library/Utilities/Development/NoOpSteps';
export const NO_OP_STEP_COUNT = 50;
export const COUNTDOWN = '/Library/Utilities/Development/Countdown';

/** How long a backlog may take to drain before the benchmark gives up on a scenario. */
export const DRAIN_TIMEOUT_MS = 180_000;

export interface ScenarioContext {
  stack: BenchStack;
  /** Measured duration of each phase (BENCH_SECONDS). */
  durationMs: number;
  /** A short unmeasured run before each measured one, so JIT and connections are warm on both sides. */
  warmupMs: number;
  /** The load generator's HTTP client (BENCH_HTTP_CLIENT). */
  httpClient: HttpClientKind;
  /** Scenario 10: how many runs wait, and how long each (BENCH_WAIT_RUNS, BENCH_WAIT_SECONDS). */
  durableWaits: { runs: number; waitMs: number };
  log(message: string): void;
  /** Raw load results by name, written to the JSON beside the table. */
  raw: Record<string, unknown>;
  /**
   * Starts another stack like `stack` (two workers, two baseline workers), its service on a Redis
   * Cluster of `clusterPrimaries` primaries, with `queueShards` shards (QUEUE_SHARDS, 1 when absent).
   */
  startClusterStack(clusterPrimaries: number, queueShards?: number, serviceEnv?: Record<string, string>): Promise<BenchStack>;
}

export type Scenario = (context: ScenarioContext) => Promise<Row[]>;

const textBody = (text: string) => JSON.stringify({ inputs: [{ name: 'Text', value: text }] });
export const BASE64_BODY = textBody('The quick brown fox jumps over the lazy dog');

/** A run of a Choreo through the API, as a load job. */
export function runJob(
  context: ScenarioContext,
  choreo: string,
  options: {
    async: boolean;
    connections: number;
    durationMs: number;
    maxRequests: number;
    body?: string;
    executionDurations?: boolean;
    keepSamples?: boolean;
    warmupMs?: number;
    perSecond?: number;
  },
): HttpLoadJob {
  return {
    kind: 'http',
    client: context.httpClient,
    origin: context.stack.origin,
    caFile: context.stack.caFile,
    connections: options.connections,
    durationMs: options.durationMs,
    maxRequests: options.maxRequests,
    request: {
      method: 'POST',
      path: `${API_BASE}/choreos${choreo}${options.async ? '?mode=async' : ''}`,
      headers: { ...context.stack.headers, 'content-type': 'application/json' },
      ...(options.body !== undefined ? { body: options.body } : {}),
    },
    okStatuses: options.async ? [202] : [200],
    ...(options.executionDurations ? { executionDurations: true } : {}),
    ...(options.perSecond !== undefined ? { perSecond: options.perSecond } : {}),
    ...(options.keepSamples ? { keepSamples: true } : {}),
    ...(options.warmupMs ? { warmupMs: options.warmupMs } : {}),
  };
}

/** Executions RUNNING right now, across accounts. */
export function runningCount(context: ScenarioContext): Promise<number> {
  return context.stack.redis.zcard(context.stack.keys.running());
}

/** Waits until no more than `atMost` executions are RUNNING; returns when (epoch ms). */
export function drainService(context: ScenarioContext, atMost: number): Promise<number> {
  return until(async () => (await runningCount(context)) <= atMost, DRAIN_TIMEOUT_MS, 'the service backlog to drain', 10);
}

/** Waits until the baseline queue has nothing waiting or active; returns when (epoch ms). */
export function drainBaseline(context: ScenarioContext): Promise<number> {
  return until(
    async () => {
      const counts = await context.stack.baselineQueue.getJobCounts('wait', 'active', 'prioritized', 'delayed');
      return Object.values(counts).every((count) => count === 0);
    },
    DRAIN_TIMEOUT_MS,
    'the baseline backlog to drain',
    10,
  );
}
