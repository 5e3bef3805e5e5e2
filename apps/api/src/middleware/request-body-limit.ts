import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { readFromClient } from '../errors/client-closed-request.ts';

/**
 * 413 for a body over `maxBytes`. A declared Content-Length is checked up front and is all the
 * body can be, so the route then reads it as usual — which @hono/node-server does straight from
 * Node's request, where hono's bodyLimit would first build a web Request and stream it (a tenth of
 * the API's CPU for a run). Only a chunked body, whose size is known once read, goes through
 * bodyLimit.
 */
export function requestBodyLimit(options: { maxBytes: number }): MiddlewareHandler<AppEnv> {
  const tooLarge = () => new ApiError('PAYLOAD_TOO_LARGE', `The request body is larger than ${options.maxBytes} bytes.`);
  const countWhileReading = bodyLimit({
    maxSize: options.maxBytes,
    onError: () => {
      throw tooLarge();
    },
  });
  return async (c, next) => {
    const declared = c.req.header('content-length');
    // The body is read here: a client that leaves mid-body is no failure of ours. (What the route
    // throws is handled before it gets back here.)
    if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return readFromClient(c, () => countWhileReading(c, next));
    if (Number.parseInt(declared, 10) > options.maxBytes) throw tooLarge();
    await next();
  };
}
