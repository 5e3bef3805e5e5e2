import { Counter, Histogram } from 'prom-client';
import type { MetricsRegistry } from './metrics-registry.ts';

export interface RequestObservation {
  method: string;
  /** The route pattern, never the raw path: ids in paths would make a series per request. */
  route: string;
  status: number;
  durationSeconds: number;
}

export interface HttpMetrics {
  observe(request: RequestObservation): void;
}

export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export function createHttpMetrics(registry: MetricsRegistry): HttpMetrics {
  const requests = new Counter({
    name: 'ces_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'ces_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_DURATION_BUCKETS,
    registers: [registry],
  });
  return {
    observe({ method, route, status, durationSeconds }) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      duration.observe(labels, durationSeconds);
    },
  };
}
