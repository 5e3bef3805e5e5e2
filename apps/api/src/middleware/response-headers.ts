import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, PendingResponseHeaders } from '../app-env.ts';

/**
 * Headers that middleware adds to every answer (request id, HSTS, Vary) wait in a plain record
 * until the answer is made. Hono's `c.header()` would keep them in a web `Headers`, which checks
 * each name and value on the way in and takes @hono/node-server off its fast path on the way out:
 * about 4% of a status poll's CPU. `respond()` writes them with its body; an answer made
 * elsewhere (health, metrics, `/ops`) gets them here, on its way back out. Install it first.
 * `always` are headers every answer starts with (HSTS), set here rather than by a middleware each.
 */
export function responseHeaders(options: { always?: Readonly<Record<string, string>> } = {}): MiddlewareHandler<AppEnv> {
  const always = options.always ?? {};
  return async (c, next) => {
    const pending: PendingResponseHeaders = { values: { ...always }, written: false };
    c.set('responseHeaders', pending);
    await next();
    if (pending.written) return;
    for (const [name, value] of Object.entries(pending.values)) c.header(name, value);
  };
}

export function addResponseHeader(c: Context<AppEnv>, name: string, value: string): void {
  const pending = c.get('responseHeaders');
  if (pending) pending.values[name] = value;
  else c.header(name, value);
}

/** The pending headers, for an answer that writes them itself. */
export function takeResponseHeaders(c: Context<AppEnv>): Record<string, string> {
  const pending = c.get('responseHeaders');
  if (!pending) return {};
  pending.written = true;
  return pending.values;
}
