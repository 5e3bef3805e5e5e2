import { Counter, Histogram } from 'prom-client';
import type { MetricsRegistry } from './metrics-registry.ts';

export interface RequestObservation {
  method: string;
  /** The route pattern, never the raw path: ids in paths would make a series per request. */
  route: string;
  status: number;
  durationSeconds: number;
}

/** The limits that refuse requests: running executions, stored bytes, failed authentications. */
export type RefusingLimit = 'running-executions' | 'stored-bytes' | 'auth-failures' | 'account-choreos';

export interface HttpMetrics {
  observe(request: RequestObservation): void;
  /** A request a limit refused (429, or 413 for a run larger than the account's whole budget). */
  refused(limit: RefusingLimit): void;
}

export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export function createHttpMetrics(registry: MetricsRegistry): HttpMetrics {
  const durationName = 'ces_http_request_duration_seconds';
  const duration = new Histogram({
    name: durationName,
    help: 'Time to answer an HTTP request, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_DURATION_BUCKETS,
    registers: [registry],
  });
  // The duration histogram already counts every request by the same labels. Reading its counts on
  // scrape, rather than counting a second time as each request ends, halves what metrics cost a
  // request: prom-client checks and hashes the labels on every call.
  new Counter({
    name: 'ces_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
    async collect() {
      const { values } = await duration.get();
      this.reset();
      for (const { metricName, labels, value } of values) {
        if (metricName === `${durationName}_count`) this.inc(labels as Record<'method' | 'route' | 'status', string>, value);
      }
    },
  });
  const refused = new Counter({
    name: 'ces_requests_refused_total',
    help: 'Requests refused by a limit: running-executions, stored-bytes, auth-failures, account-choreos.',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  return {
    observe({ method, route, status, durationSeconds }) {
      duration.observe({ method, route, status: String(status) }, durationSeconds);
    },
    refused(limit) {
      refused.inc({ limit });
    },
  };
}
