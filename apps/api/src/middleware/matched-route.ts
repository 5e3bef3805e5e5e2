import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';

/**
 * The route pattern that answered (`/service-api/1.0/choreo-executions/:id`), for metrics and
 * logs: never the raw path, whose ids would make a series per request. Middleware entries
 * (method ALL) are skipped; a request no route matched is `unmatched`.
 */
export function matchedRoute(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i -= 1) {
    const route = routes[i]!;
    if (route.method !== 'ALL') return route.path;
  }
  return 'unmatched';
}
