import { isIP } from 'node:net';
import { StepFailedError } from '@ces/language';
import { createEgressPolicy } from './egress-policy.ts';
import { ResponseTooLargeError } from './http1-response-reader.ts';
import { type HttpStepOptions, requestUrl, tooLarge } from './http-request.ts';
import { ClosedAfterAnswerError, type ConnectionTarget, LostBehindError, PipelinedConnection, type PipelinedRequest } from './pipelined-connection.ts';

/** How much of an answer's body the poster gives back. */
const BODY_KEPT = 4096;

/** Most connections to one endpoint, and most requests in flight on one of them. */
const MOST_CONNECTIONS = 16;
const MOST_PIPELINED = 16;

/** How many times a request its connection lost unanswered is written again, on a new one. */
const MOST_RESENDS = 2;

export type HttpPoster = (
  url: string,
  request: { headers: Record<string, string>; body: string; timeoutMs: number },
) => Promise<{ status: number; body: string }>;

// A header value that would end its line (or the head) early.
const LINE_BREAK = /[\r\n\0]/;

interface Endpoint {
  key: string;
  target: ConnectionTarget;
  connections: PipelinedConnection[];
  /** Requests waiting for room on a connection. */
  waiting: (() => void)[];
  /** False once its server has closed a connection with requests pipelined behind an answer. */
  pipelines: boolean;
}

/**
 * POSTs a body under the same egress policy and limits as `http.request`, for the service's own
 * requests on an account's behalf (webhook deliveries): the answer's status and the first
 * kilobytes of its body, whatever the status. A request that fails (refused by the policy,
 * unreachable, timed out) throws.
 *
 * Requests to one URL share a few kept-alive HTTP/1.1 connections and are pipelined on them:
 * the requests of one turn of the event loop go out in one write, their answers come back in one
 * read, which at a thousand deliveries a second costs the sender and the endpoint a fraction of a
 * request and answer each. Every request carries its own deadline. A request its connection lost
 * before its answer (its server closed it, or a request ahead of it timed out) is written again on
 * a new connection, as a retry would send it; its receiver knows it by its `webhook-id`. An
 * endpoint that closes a connection with requests behind an answer gets one request per connection.
 */
export function createHttpPoster(options: HttpStepOptions): HttpPoster {
  const policy = createEgressPolicy(options);
  const endpoints = new Map<string, Endpoint>();
  const limits = { maxBodyBytes: options.maxResponseBytes, keptBodyBytes: BODY_KEPT * 4 };

  function endpointOf(url: URL): Endpoint {
    // One URL's requests share connections; another URL of the same host, slow or not, holds none of them up.
    const key = `${url.protocol}//${url.host}${url.pathname}${url.search}`;
    let endpoint = endpoints.get(key);
    if (!endpoint) {
      const tls = url.protocol === 'https:';
      const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
      endpoint = {
        key,
        target: { tls, host, port: Number(url.port || (tls ? 443 : 80)), servername: isIP(host) ? undefined : host, lookup: policy.lookup },
        connections: [],
        waiting: [],
        pipelines: true,
      };
      endpoints.set(key, endpoint);
    }
    return endpoint;
  }

  /** A connection with room for one more request, opened if need be; undefined when all are full. */
  function connectionFor(endpoint: Endpoint): PipelinedConnection | undefined {
    const most = endpoint.pipelines ? MOST_PIPELINED : 1;
    // The first with room: a turn's requests fill one connection and go out in one write.
    const roomy = endpoint.connections.find((connection) => connection.open && connection.load < most);
    if (roomy || endpoint.connections.length >= MOST_CONNECTIONS) return roomy;
    const opened = new PipelinedConnection(endpoint.target, limits, (done) => {
      endpoint.connections.splice(endpoint.connections.indexOf(done), 1);
      makeRoom(endpoint);
      // Each run may name a URL of its own: an endpoint with nothing open is forgotten.
      if (endpoint.connections.length === 0 && endpoint.waiting.length === 0) endpoints.delete(endpoint.key);
    });
    endpoint.connections.push(opened);
    return opened;
  }

  /** Room was made on `endpoint`: the longest waiting request takes it. */
  const makeRoom = (endpoint: Endpoint) => endpoint.waiting.shift()?.();

  return async (text, posted) => {
    const url = requestUrl(text);
    policy.checkHost(url.hostname);
    for (const [name, value] of Object.entries(posted.headers))
      if (LINE_BREAK.test(name) || LINE_BREAK.test(value)) throw new StepFailedError(`the header ${JSON.stringify(name)} has a line break`);
    const endpoint = endpointOf(url);
    const body = Buffer.from(posted.body, 'utf8');
    const head = [`POST ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`, `content-length: ${body.length}`];
    for (const [name, value] of Object.entries(posted.headers)) if (name.toLowerCase() !== 'content-length') head.push(`${name}: ${value}`);
    const bytes = Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
    const timeoutMs = Math.min(options.timeoutMs, posted.timeoutMs);

    return new Promise((resolve, reject) => {
      let settled = false;
      let resends = 0;
      let carrier: PipelinedConnection | undefined;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };
      const fail = (error: Error) =>
        settle(() => reject(error instanceof StepFailedError ? error : new StepFailedError(`HTTP request failed: ${error.message}`, { cause: error })));
      const timer = setTimeout(() => {
        fail(new StepFailedError(`HTTP request timed out after ${timeoutMs} ms`));
        // Its answer would hold up those behind it: the connection goes, and they are sent again.
        carrier?.destroy(new LostBehindError(`a request ahead timed out after ${timeoutMs} ms`));
      }, timeoutMs);

      const request: PipelinedRequest = {
        bytes,
        answered(response) {
          carrier = undefined;
          makeRoom(endpoint);
          settle(() => resolve({ status: response.status, body: response.body.toString('utf8').slice(0, BODY_KEPT) }));
        },
        unanswered(error, how) {
          carrier = undefined;
          if (settled) return;
          if (error instanceof ResponseTooLargeError) return fail(tooLarge(options.maxResponseBytes));
          if (error instanceof ClosedAfterAnswerError) endpoint.pipelines = false;
          // Lost behind another request's answer or timeout: not this request's failure, sent again.
          if (error instanceof LostBehindError) return send();
          // Never connected: the endpoint is unreachable, refused or untrusted.
          if (!how.connected) return fail(error);
          // Lost on a kept-alive connection its server closed: sent again a few times.
          resends += 1;
          if (resends > MOST_RESENDS) return fail(error);
          send();
        },
      };
      const send = () => {
        if (settled) {
          // It timed out waiting: the room it was given goes to the next.
          makeRoom(endpoint);
          return;
        }
        const connection = connectionFor(endpoint);
        if (!connection) {
          endpoint.waiting.push(send);
          return;
        }
        carrier = connection;
        connection.send(request);
      };
      send();
    });
  };
}
