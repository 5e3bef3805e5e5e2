import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';

/** A parameter's pattern (`:id{.+}`): the label keeps the parameter's name alone. */
const PARAMETER_PATTERN = /(:[A-Za-z_][\w-]*)\{(?:[^{}]|\{[^{}]*\})*\}/g;

/**
 * The route pattern that answered (`/service-api/1.0/choreo-executions/:id`), for metrics and
 * logs: never the raw path, whose ids would make a series per request. Middleware entries
 * (method ALL) are skipped; a request no route matched is `unmatched`. Parameters are named
 * without their patterns (`/service-api/1.0/choreos/:id`, not `:id{.+}`), which would read as
 * regular expressions in a PromQL matcher.
 */
export function matchedRoute(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i -= 1) {
    const route = routes[i];
    if (route && route.method !== 'ALL') return routeLabel(route.path);
  }
  return 'unmatched';
}

function routeLabel(pattern: string): string {
  return pattern.replace(PARAMETER_PATTERN, '$1');
}
