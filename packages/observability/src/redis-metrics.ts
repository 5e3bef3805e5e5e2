import { Counter } from 'prom-client';
import type { MetricsRegistry } from './metrics-registry.ts';

/** What is needed of a Redis connection: its events (ioredis emits `error` and `reconnecting`). */
export interface RedisEventSource {
  on(event: 'error' | 'reconnecting', listener: (...args: unknown[]) => void): unknown;
}

export interface RedisMetrics {
  /** Counts the connection's errors and reconnection attempts under `connection="<name>"`. */
  instrument(connection: RedisEventSource, name: string): void;
}

export function createRedisMetrics(registry: MetricsRegistry): RedisMetrics {
  const errors = new Counter({
    name: 'ces_redis_errors_total',
    help: 'Errors reported by a Redis connection of this process, by connection.',
    labelNames: ['connection'] as const,
    registers: [registry],
  });
  const reconnects = new Counter({
    name: 'ces_redis_reconnects_total',
    help: 'Reconnection attempts of a Redis connection of this process, by connection.',
    labelNames: ['connection'] as const,
    registers: [registry],
  });
  return {
    instrument(connection, name) {
      // Series exist from the start, so `increase()` sees the first error too.
      errors.inc({ connection: name }, 0);
      reconnects.inc({ connection: name }, 0);
      connection.on('error', () => errors.inc({ connection: name }));
      connection.on('reconnecting', () => reconnects.inc({ connection: name }));
    },
  };
}
