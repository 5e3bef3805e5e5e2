import {
  createExecutionMetrics,
  createMetricsRegistry,
  createRedisMetrics,
  registerWorkerMetrics,
  type ExecutionMetrics,
  type MetricsRegistry,
  type RedisMetrics,
} from '@ces/observability';

export interface WorkerMetrics {
  registry: MetricsRegistry;
  executions: ExecutionMetrics;
  redis: RedisMetrics;
}

/** A worker's metrics: the executions and steps it runs, its capacity and load, its Redis connections. */
export function createWorkerMetrics(sources: { concurrency: number; activeCount: () => number }): WorkerMetrics {
  const registry = createMetricsRegistry({ service: 'worker' });
  registerWorkerMetrics(registry, sources);
  return { registry, executions: createExecutionMetrics(registry), redis: createRedisMetrics(registry) };
}
