import {
  createExecutionMetrics,
  createWebhookMetrics,
  createMetricsRegistry,
  createRedisMetrics,
  createScheduleTickMetrics,
  registerWorkerMetrics,
  type ExecutionMetrics,
  type MetricsRegistry,
  type RedisMetrics,
  type WebhookMetrics,
  type ScheduleTickMetrics,
  type WorkerTakeMetrics,
} from '@ces/observability';

export interface WorkerMetrics {
  registry: MetricsRegistry;
  executions: ExecutionMetrics;
  redis: RedisMetrics;
  takes: WorkerTakeMetrics;
  webhooks: WebhookMetrics;
  schedules: ScheduleTickMetrics;
}

/** A worker's metrics: the executions and steps it runs, its capacity and load, its Redis connections, the ticks it fires, its webhook attempts. */
export function createWorkerMetrics(sources: { concurrency: number; activeCount: () => number }): WorkerMetrics {
  const registry = createMetricsRegistry({ service: 'worker' });
  const takes = registerWorkerMetrics(registry, sources);
  return {
    registry,
    executions: createExecutionMetrics(registry),
    redis: createRedisMetrics(registry),
    takes,
    schedules: createScheduleTickMetrics(registry),
    webhooks: createWebhookMetrics(registry),
  };
}
