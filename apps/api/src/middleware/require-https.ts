import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';

/**
 * Behind a TLS-terminating proxy the API listens on plain HTTP; only requests the proxy says came
 * over HTTPS are served. Every response carries HSTS, since the service is HTTPS-only.
 */
export function requireHttps(options: { trustProxy: boolean }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.header('Strict-Transport-Security', 'max-age=31536000');
    if (options.trustProxy) {
      const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
      if (proto !== 'https') throw new ApiError('FORBIDDEN', 'Requests must use HTTPS.');
    }
    await next();
  };
}
