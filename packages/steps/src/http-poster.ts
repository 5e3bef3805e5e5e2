import { libraryOnFirstUse } from '@ces/formats';
import { StepFailedError } from '@ces/language';
import type * as Undici from 'undici';
import { createEgressPolicy } from './egress-policy.ts';
import { type HttpStepOptions, requestUrl, tooLarge } from './http-request.ts';

// Loaded by the first delivery: an API, or a worker whose accounts have no webhooks, never loads it.
const undici = libraryOnFirstUse<typeof Undici>('undici');

/** How much of an answer's body the poster gives back. */
const BODY_KEPT = 4096;

export type HttpPoster = (
  url: string,
  request: { headers: Record<string, string>; body: string; timeoutMs: number },
) => Promise<{ status: number; body: string }>;

type Controller = Undici.Dispatcher.DispatchController;

/**
 * POSTs a body under the same egress policy and limits as `http.request`, for the service's own
 * requests on an account's behalf (webhook deliveries): the answer's status and the first
 * kilobytes of its body, whatever the status. A request that fails (refused by the policy,
 * unreachable, timed out) throws. Its one undici agent keeps a pool of connections per endpoint,
 * kept alive and reused, which costs a request about half the CPU of node:https; the request is
 * dispatched with a handler of its own rather than through `request()`, whose body stream and
 * abort signal cost about as much again as the rest of the request.
 */
export function createHttpPoster(options: HttpStepOptions): HttpPoster {
  const policy = createEgressPolicy(options);
  // The policy's lookup judges every address a host name resolves to, on each new connection.
  let agent: Undici.Agent | undefined;
  return async (text, posted) => {
    const url = requestUrl(text);
    policy.checkHost(url.hostname);
    const timeoutMs = Math.min(options.timeoutMs, posted.timeoutMs);
    agent ??= new (undici().Agent)({ connect: { lookup: policy.lookup } });
    const dispatcher = agent;
    return new Promise((resolve, reject) => {
      let controller: Controller | undefined;
      let settled = false;
      let status = 0;
      let size = 0;
      let body = '';
      // Why the request was given up before undici started it: it is aborted as it starts.
      let abandoned: Error | undefined;
      const fail = (error: Error, abortRequest = true) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (abortRequest) {
          if (controller) controller.abort(error);
          else abandoned = error;
        }
        reject(error instanceof StepFailedError ? error : new StepFailedError(`HTTP request failed: ${error.message}`, { cause: error }));
      };
      const timer = setTimeout(() => fail(new StepFailedError(`HTTP request timed out after ${timeoutMs} ms`)), timeoutMs);
      const handler: Undici.Dispatcher.DispatchHandler = {
        onRequestStart(started) {
          controller = started;
          if (abandoned) started.abort(abandoned);
        },
        onResponseStart(_, statusCode) {
          // An interim answer (100 Continue) is followed by the real one.
          if (statusCode >= 200) status = statusCode;
        },
        onResponseData(_, chunk) {
          size += chunk.length;
          if (size > options.maxResponseBytes) fail(tooLarge(options.maxResponseBytes));
          else if (body.length < BODY_KEPT) body += chunk.toString('utf8');
        },
        onResponseEnd() {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ status, body: body.slice(0, BODY_KEPT) });
        },
        onResponseError(_, error) {
          fail(error, false);
        },
      };
      try {
        dispatcher.dispatch({ origin: url.origin, path: `${url.pathname}${url.search}`, method: 'POST', headers: posted.headers, body: posted.body }, handler);
      } catch (error) {
        fail(error as Error, false);
      }
    });
  };
}
