import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors/error-catalogue.ts';

/** Paths that balancers probe, often every few seconds. */
export const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

export interface HealthProbe {
  /** Resolves true when Redis answers a PING in time. */
  redisAnswers(): Promise<boolean>;
  liveWorkers(): Promise<number>;
}

/**
 * `/healthz`: the process is alive. `/readyz`: Redis answers. Readiness does not depend on workers,
 * or an outage of workers would take every API instance out of its load balancer; the live
 * worker count is in the body for people and dashboards.
 */
export function healthRoutes(deps: { probe: HealthProbe }) {
  return new Hono<AppEnv>()
    .get('/healthz', (c) => c.json({ status: 'ok' }))
    .get('/readyz', async (c) => {
      const redis = await deps.probe.redisAnswers();
      const workers = redis ? await deps.probe.liveWorkers().catch(() => 0) : 0;
      const body = { status: redis ? 'ready' : 'unavailable', redis: redis ? 'up' : 'down', workers };
      return redis ? c.json(body, 200) : c.json(body, 503, { 'Retry-After': UNAVAILABLE_RETRY_AFTER_SECONDS });
    });
}
