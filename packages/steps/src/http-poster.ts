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

/**
 * POSTs a body under the same egress policy and limits as `http.request`, for the service's own
 * requests on an account's behalf (webhook deliveries): the answer's status and the first
 * kilobytes of its body, whatever the status. A request that fails (refused by the policy,
 * unreachable, timed out) throws. Its one undici agent keeps a pool of connections per endpoint,
 * kept alive and reused, which costs a request about half the CPU of node:https.
 */
export function createHttpPoster(options: HttpStepOptions): HttpPoster {
  const policy = createEgressPolicy(options);
  // The policy's lookup judges every address a host name resolves to, on each new connection.
  let agent: Undici.Agent | undefined;
  return async (text, posted) => {
    const url = requestUrl(text);
    policy.checkHost(url.hostname);
    const timeoutMs = Math.min(options.timeoutMs, posted.timeoutMs);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    try {
      agent ??= new (undici().Agent)({ connect: { lookup: policy.lookup } });
      const response = await undici().request(url, { method: 'POST', headers: posted.headers, body: posted.body, dispatcher: agent, signal: abort.signal });
      let size = 0;
      let body = '';
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > options.maxResponseBytes) {
          response.body.destroy();
          throw tooLarge(options.maxResponseBytes);
        }
        if (body.length < BODY_KEPT) body += chunk.toString('utf8');
      }
      return { status: response.statusCode, body: body.slice(0, BODY_KEPT) };
    } catch (error) {
      if (error instanceof StepFailedError) throw error;
      if (abort.signal.aborted) throw new StepFailedError(`HTTP request timed out after ${timeoutMs} ms`);
      throw new StepFailedError(`HTTP request failed: ${(error as Error).message}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  };
}
