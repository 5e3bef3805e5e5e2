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

/** How long an endpoint found not to take pipelined requests gets one request per connection. */
const UNPIPELINED_MS = 10 * 60_000;
/** Most endpoints remembered as such; past it the memory starts again. */
const MOST_UNPIPELINED = 10_000;

/** How many times a request its connection lost unanswered is written again, on a new one. */
const MOST_RESENDS = 2;

export type HttpPoster = (
  url: string,
  request: { headers: Record<string, string>; body: string; timeoutMs: number },
) => Promise<{ status: number; body: string }>;

interface Endpoint {
  key: string;
  target: ConnectionTarget;
  connections: PipelinedConnection[];
  /** Requests waiting for room on a connection, the longest waiting first. */
  waiting: Waiter[];
  /** False while it is known not to take pipelined requests (stopPipelining). */
  pipelines: boolean;
}

type Waiter = (connection: PipelinedConnection) => void;

// What a header's name may be (a token), and what its value may hold: visible ASCII, spaces and tabs.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
// Headers the poster writes itself, for the framing of the requests it pipelines.
const OWN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

/**
 * POSTs a body under the same egress policy and limits as `http.request`, for the service's own
 * requests on an account's behalf (webhook deliveries): the answer's status and the first
 * kilobytes of its body, whatever the status. A request that fails (refused by the policy,
 * unreachable, timed out) throws.
 *
 * Requests to one URL share a few kept-alive HTTP/1.1 connections and are pipelined on them:
 * the requests of a millisecond go out in one write, their answers come back in one
 * read, which at a thousand deliveries a second costs the sender and the endpoint a fraction of a
 * request and answer each. Every request carries its own deadline. A request its connection lost
 * after writing it, before its answer (its server closed it, or a request ahead of it timed out),
 * is written again on a new connection, at most MOST_RESENDS times, as a retry would send it; its
 * receiver knows it by its `webhook-id`. An endpoint that closes a connection with requests behind
 * an answer, or lets a request time out with others on its connection, gets one request per
 * connection for the next ten minutes.
 */
export function createHttpPoster(options: HttpStepOptions): HttpPoster {
  const policy = createEgressPolicy(options);
  const endpoints = new Map<string, Endpoint>();
  // Until when an endpoint gets one request per connection, past its connections' lives.
  const unpipelined = new Map<string, number>();
  const stopPipelining = (endpoint: Endpoint) => {
    endpoint.pipelines = false;
    if (unpipelined.size >= MOST_UNPIPELINED) unpipelined.clear();
    unpipelined.set(endpoint.key, Date.now() + UNPIPELINED_MS);
  };
  // BODY_KEPT characters of UTF-8 take at most four bytes each.
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
        pipelines: (unpipelined.get(key) ?? 0) < Date.now(),
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
      const index = endpoint.connections.indexOf(done);
      if (index >= 0) endpoint.connections.splice(index, 1);
      // The requests it lost are told after this, and find their endpoint again by its URL.
      if (endpoint.connections.length === 0 && endpoint.waiting.length === 0 && endpoints.get(endpoint.key) === endpoint) endpoints.delete(endpoint.key);
      else admit(endpoint);
    });
    endpoint.connections.push(opened);
    return opened;
  }

  /** Gives the waiting requests what room there is, the longest waiting first. */
  function admit(endpoint: Endpoint): void {
    while (endpoint.waiting.length > 0) {
      const connection = connectionFor(endpoint);
      if (!connection) return;
      (endpoint.waiting.shift() as Waiter)(connection);
    }
  }

  return async (text, posted) => {
    const url = requestUrl(text);
    policy.checkHost(url.hostname);
    const head = [`POST ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
    for (const [name, value] of Object.entries(posted.headers)) {
      if (!HEADER_NAME.test(name) || !HEADER_VALUE.test(value)) throw new StepFailedError(`the header ${JSON.stringify(name)} is not a valid header`);
      if (!OWN_HEADERS.has(name.toLowerCase())) head.push(`${name}: ${value}`);
    }
    const body = Buffer.from(posted.body, 'utf8');
    head.push(`content-length: ${body.length}`);
    const bytes = Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
    const timeoutMs = Math.min(options.timeoutMs, posted.timeoutMs);

    return new Promise((resolve, reject) => {
      let settled = false;
      let resends = 0;
      let carrier: PipelinedConnection | undefined;
      let waitingOn: Endpoint | undefined;
      // Whether it went on a connection behind requests not yet answered.
      let pipelinedBehind = false;
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
        const waited = waitingOn?.waiting.indexOf(board) ?? -1;
        if (waited >= 0) waitingOn?.waiting.splice(waited, 1);
        // An endpoint that leaves a pipelined request unanswered may be one that reads only the
        // first of a connection's requests: it gets one request per connection from now on.
        if (carrier && pipelinedBehind) stopPipelining(endpointOf(url));
        // Its answer would hold up those behind it: the connection goes, and they are sent again.
        carrier?.destroy(new LostBehindError(`a request ahead timed out after ${timeoutMs} ms`));
      }, timeoutMs);

      const request: PipelinedRequest = {
        bytes,
        answered(response) {
          carrier = undefined;
          settle(() => resolve({ status: response.status, body: response.body.toString('utf8').slice(0, BODY_KEPT) }));
          admit(endpointOf(url));
        },
        unanswered(error, how) {
          carrier = undefined;
          if (settled) return;
          if (error instanceof ResponseTooLargeError) return fail(tooLarge(options.maxResponseBytes));
          if (error instanceof ClosedAfterAnswerError) stopPipelining(endpointOf(url));
          // Never connected: the endpoint is unreachable, refused or untrusted.
          if (!how.connected && !(error instanceof LostBehindError)) return fail(error);
          // Written and lost: sent again a few times at most, whoever's fault it was.
          if (how.sent) resends += 1;
          if (resends > MOST_RESENDS) return fail(error);
          send();
        },
      };
      const board: Waiter = (connection) => {
        waitingOn = undefined;
        pipelinedBehind = connection.load > 0;
        carrier = connection;
        connection.send(request);
      };
      const send = () => {
        const endpoint = endpointOf(url);
        // Behind those already waiting, if any.
        const connection = endpoint.waiting.length === 0 ? connectionFor(endpoint) : undefined;
        if (connection) return board(connection);
        waitingOn = endpoint;
        endpoint.waiting.push(board);
        admit(endpoint);
      };
      send();
    });
  };
}
