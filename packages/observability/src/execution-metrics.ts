import { Counter, Histogram } from 'prom-client';
import type { MetricsRegistry } from './metrics-registry.ts';

export interface ExecutionMetrics {
  /** An execution was accepted and queued (counted by the API that accepted it). */
  started(choreo: string): void;
  /** An execution reached a terminal status (counted by the process that ended it). */
  ended(event: { choreo: string; status: string; durationMs: number }): void;
  step(event: { kind: string; ok: boolean; durationMs: number }): void;
}

/** Runs last from milliseconds (encoding) to the 15-minute default time limit and beyond. */
export const EXECUTION_DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 1800, 3600];
export const STEP_DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * Counters are per process; Prometheus sums them over instances. Labels are bounded: Choreo ids
 * come from the catalogue, statuses and step kinds from fixed lists — never an execution id.
 */
export function createExecutionMetrics(registry: MetricsRegistry): ExecutionMetrics {
  const started = new Counter({
    name: 'ces_executions_started_total',
    help: 'Executions accepted and queued, by Choreo.',
    labelNames: ['choreo'] as const,
    registers: [registry],
  });
  const ended = new Counter({
    name: 'ces_executions_ended_total',
    help: 'Executions that reached a terminal status, by Choreo and status.',
    labelNames: ['choreo', 'status'] as const,
    registers: [registry],
  });
  const executionDuration = new Histogram({
    name: 'ces_execution_duration_seconds',
    help: 'Time from acceptance to terminal status (queue wait included), by Choreo and status.',
    labelNames: ['choreo', 'status'] as const,
    buckets: EXECUTION_DURATION_BUCKETS,
    registers: [registry],
  });
  const stepDuration = new Histogram({
    name: 'ces_step_duration_seconds',
    help: 'Time one step took, by step kind and whether it completed (ok="false": it failed, or a termination, time limit or shutdown interrupted it). A step that suspends its run is told when it ends.',
    labelNames: ['kind', 'ok'] as const,
    buckets: STEP_DURATION_BUCKETS,
    registers: [registry],
  });
  return {
    started(choreo) {
      started.inc({ choreo });
    },
    ended({ choreo, status, durationMs }) {
      ended.inc({ choreo, status });
      executionDuration.observe({ choreo, status }, Math.max(0, durationMs) / 1000);
    },
    step({ kind, ok, durationMs }) {
      stepDuration.observe({ kind, ok: String(ok) }, Math.max(0, durationMs) / 1000);
    },
  };
}
