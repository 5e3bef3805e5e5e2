export { createLogger, REDACTED_PATHS, type Logger } from './logger.ts';
export { createMetricsRegistry, type MetricsRegistry } from './metrics-registry.ts';
export { createHttpMetrics, HTTP_DURATION_BUCKETS, type HttpMetrics, type RefusingLimit, type RequestObservation } from './http-metrics.ts';
export {
  createExecutionMetrics,
  EXECUTION_DURATION_BUCKETS,
  STEP_DURATION_BUCKETS,
  type ExecutionMetrics,
} from './execution-metrics.ts';
export { registerClusterMetrics, type ClusterSources } from './cluster-metrics.ts';
export { registerWorkerMetrics, type WorkerTakeMetrics } from './worker-metrics.ts';
export { createWebhookMetrics, type WebhookAttemptOutcome, type WebhookMetrics } from './webhook-metrics.ts';
export { createScheduleTickMetrics, registerScheduleGauges, SCHEDULE_LAG_BUCKETS, type ScheduleTickMetrics } from './schedule-metrics.ts';
export { createRedisMetrics, type RedisEventSource, type RedisMetrics } from './redis-metrics.ts';
export {
  ACCESS_LOG_MESSAGE,
  accessLogLevel,
  createAccessLogWriter,
  type AccessLogEntry,
  type AccessLogLevel,
  type AccessLogWriter,
} from './access-log.ts';
export { createDirectLineWriter, jsonString, type DirectLineLevel } from './direct-line.ts';
export { runService, type StoppableService } from './run-service.ts';
