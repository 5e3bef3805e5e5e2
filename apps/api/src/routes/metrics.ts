import type { MetricsRegistry } from '@ces/observability';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { Authentication } from '../auth/throttled-authentication.ts';
import { authenticateOperator } from '../middleware/authenticate.ts';

/**
 * `GET /metrics` in the Prometheus text format. The API's port faces tenants and the metrics name
 * accounts, so scraping takes operator credentials (Prometheus: `basic_auth`); a worker's metrics
 * are on its own internal port instead.
 */
export function metricsRoute(deps: { registry: MetricsRegistry; authentication: Authentication }) {
  return new Hono<AppEnv>().get('/metrics', authenticateOperator({ authentication: deps.authentication }), async (c) =>
    c.body(await deps.registry.metrics(), 200, { 'Content-Type': deps.registry.contentType }),
  );
}
