import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { addResponseHeader } from './response-headers.ts';

/** Every response carries HSTS, errors and health checks included: the service is HTTPS-only. */
export function strictTransportSecurity(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    addResponseHeader(c, 'Strict-Transport-Security', 'max-age=31536000');
    await next();
  };
}

/**
 * Behind a TLS-terminating proxy the API listens on plain HTTP; only requests the proxy says came
 * over HTTPS are served. (Health checks outside the interface stay reachable for the balancer.)
 */
export function requireHttps(options: { trustProxy: boolean }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (options.trustProxy) {
      const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
      if (proto !== 'https') throw new ApiError('FORBIDDEN', 'Requests must use HTTPS.');
    }
    await next();
  };
}
