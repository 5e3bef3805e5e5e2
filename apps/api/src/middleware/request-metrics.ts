import type { HttpMetrics } from '@ces/observability';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { matchedRoute } from './matched-route.ts';

/** Counts every request by route pattern and status, with its latency. */
export function requestMetrics(options: { http: HttpMetrics }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      options.http.observe({
        method: c.req.method,
        route: matchedRoute(c),
        status: c.res.status,
        durationSeconds: (performance.now() - started) / 1000,
      });
    }
  };
}
