import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { negotiateFormat } from '../formats/negotiate.ts';

/** Sets the response format from Accept; 406 (in JSON) when nothing acceptable can be produced. */
export function negotiate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const format = negotiateFormat(c.req.header('accept'));
    c.set('format', format ?? 'json');
    c.header('Vary', 'Accept');
    if (format === undefined) throw new ApiError('NOT_ACCEPTABLE');
    await next();
  };
}
