import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { addResponseHeader } from './response-headers.ts';

const ACCEPTABLE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Takes the caller's `X-Request-Id` when it is sane, otherwise makes one, and echoes it back. */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const offered = c.req.header('x-request-id');
    const id = offered && ACCEPTABLE_ID.test(offered) ? offered : randomUUID();
    c.set('requestId', id);
    addResponseHeader(c, 'X-Request-Id', id);
    await next();
  };
}
