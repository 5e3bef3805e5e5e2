import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { CONSOLE_PATH } from './console-path.ts';

/**
 * A browser at the root (`Accept: text/html`) is sent to the console; API clients, which never ask
 * for HTML, keep the root's 404 in their format. Before negotiation, which would refuse HTML.
 */
export function rootRedirect(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.path === '/' && (c.req.method === 'GET' || c.req.method === 'HEAD') && /\btext\/html\b/.test(c.req.header('accept') ?? '')) {
      return c.redirect(CONSOLE_PATH, 303);
    }
    await next();
  };
}
