import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { negotiateFormat, type Format } from '../formats/negotiate.ts';
import { addResponseHeader } from './response-headers.ts';

/** Distinct Accept headers remembered; clients send a handful, so more means someone is probing. */
const REMEMBERED_ACCEPT_HEADERS = 256;

/**
 * Sets the response format from Accept; 406 (in JSON) when nothing acceptable can be produced.
 * Paths under `ownFormatsUnder`, or matching `ownFormatsMatching`, serve formats of their own (a
 * dashboard's page, scripts and styles; a callback URL, which answers whoever visits it; a run's
 * events): they are never refused, and their errors are answered in JSON.
 */
export function negotiate(options: { ownFormatsUnder?: readonly string[]; ownFormatsMatching?: readonly RegExp[] } = {}): MiddlewareHandler<AppEnv> {
  const own = options.ownFormatsUnder ?? [];
  const matching = options.ownFormatsMatching ?? [];
  const servesOwnFormats = (path: string) =>
    own.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)) || matching.some((pattern) => pattern.test(path));
  // Parsing Accept cost more than anything else this middleware does, and every client repeats
  // its own header on each request.
  const formats = new Map<string, Format | undefined>();
  function formatFor(accept: string | undefined): Format | undefined {
    if (accept === undefined) return negotiateFormat(accept);
    if (formats.has(accept)) return formats.get(accept);
    const format = negotiateFormat(accept);
    if (formats.size >= REMEMBERED_ACCEPT_HEADERS) formats.clear();
    formats.set(accept, format);
    return format;
  }
  return async (c, next) => {
    if (servesOwnFormats(c.req.path)) {
      c.set('format', 'json');
      return next();
    }
    const format = formatFor(c.req.header('accept'));
    c.set('format', format ?? 'json');
    addResponseHeader(c, 'Vary', 'Accept');
    if (format === undefined) throw new ApiError('NOT_ACCEPTABLE');
    await next();
  };
}
