import type { CallbackRequest } from '@ces/language';
import { CALLBACK_CAPTURE_PATH, type CallbackStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { readFromClient } from '../errors/client-closed-request.ts';
import { requestBodyLimit } from '../middleware/request-body-limit.ts';

/** A callback records what a redirect or a webhook sends, not uploads. */
export const MAX_CALLBACK_BODY_BYTES = 64 * 1024;
/** Headers never recorded: credentials of the visitor, which the account has no business reading. */
const UNRECORDED_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);
const BODY_TEXT = new TextDecoder('utf-8');

/**
 * A callback URL (Callback/RegisterCallback): records the request — method, query, headers, body —
 * for its account's GetCallbackData, then redirects to the callback's forwarding URL, or answers
 * 200. Unknown, expired or altered tokens answer 404.
 */
export function callbackCaptureRoute(deps: { callbacks?: CallbackStore }) {
  return new Hono<AppEnv>().all(`${CALLBACK_CAPTURE_PATH}/:token`, requestBodyLimit({ maxBytes: MAX_CALLBACK_BODY_BYTES }), async (c) => {
    const token = c.req.param('token');
    const target = deps.callbacks ? await deps.callbacks.target(token) : undefined;
    if (!deps.callbacks || !target) throw new ApiError('NOT_FOUND', 'No such callback, or it has expired.');
    const query = Object.fromEntries(new URL(c.req.url).searchParams);
    const filtered = target.filter !== undefined && query[target.filter.name] !== target.filter.value;
    let forward = target.forward;
    if (!filtered) {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(c.req.header())) if (!UNRECORDED_HEADERS.has(name)) headers[name] = value;
      const body = ['GET', 'HEAD'].includes(c.req.method) ? '' : BODY_TEXT.decode(await readFromClient(c, () => c.req.arrayBuffer()));
      const request: CallbackRequest = { method: c.req.method, query, headers, body, receivedAt: new Date().toISOString() };
      const recorded = await deps.callbacks.record(token, request);
      if (recorded === undefined) throw new ApiError('NOT_FOUND', 'No such callback, or it has expired.');
      forward = recorded;
    }
    if (forward !== '') return c.redirect(forward, 302);
    return c.text('Received.\n', 200);
  });
}
