import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';

/**
 * Every response carries HSTS, errors and health checks included: the service is HTTPS-only. It is
 * one of the headers `responseHeaders()` starts every answer with, not a middleware of its own.
 */
export const STRICT_TRANSPORT_SECURITY = { 'Strict-Transport-Security': 'max-age=31536000' } as const;

/**
 * Behind a TLS-terminating proxy the API listens on plain HTTP; only requests the proxy says came
 * over HTTPS are served, on every path but `probes`: a balancer checks its backends directly, over
 * plain HTTP, without the header. Install it only then: a server that is HTTPS itself has nothing
 * to check.
 */
export function requireHttps(options: { probes: ReadonlySet<string> }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (options.probes.has(c.req.path)) return next();
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
    if (proto !== 'https') throw new ApiError('FORBIDDEN', 'Requests must use HTTPS.');
    await next();
  };
}
