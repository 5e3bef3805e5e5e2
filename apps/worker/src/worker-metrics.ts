import {
  createExecutionMetrics,
  createWebhookMetrics,
  createMetricsRegistry,
  createRedisMetrics,
  registerWorkerMetrics,
  type ExecutionMetrics,
  type MetricsRegistry,
  type RedisMetrics,
  type WebhookMetrics,
  type WorkerTakeMetrics,
} from '@ces/observability';

export interface WorkerMetrics {
  registry: MetricsRegistry;
  executions: ExecutionMetrics;
  redis: RedisMetrics;
  takes: WorkerTakeMetrics;
  webhooks: WebhookMetrics;
}

/** A worker's metrics: the executions and steps it runs, its capacity and load, its Redis connections, its webhook attempts. */
export function createWorkerMetrics(sources: { concurrency: number; activeCount: () => number }): WorkerMetrics {
  const registry = createMetricsRegistry({ service: 'worker' });
  const takes = registerWorkerMetrics(registry, sources);
  return { registry, executions: createExecutionMetrics(registry), redis: createRedisMetrics(registry), takes, webhooks: createWebhookMetrics(registry) };
}
