import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { connectionErrorOf } from './client-errors.ts';

export interface HttpsFetchOptions {
  /** PEM certificates to trust besides Node's own (a self-signed service's certificate). */
  ca?: string | undefined;
  /** Time to get the answer's headers; the body (an event stream) may take longer. */
  timeoutMs: number;
}

/**
 * A `fetch` over node:https, since the global one cannot be given a CA per client. The answer's
 * body streams, so that an event stream is read as it comes.
 */
export function createHttpsFetch(options: HttpsFetchOptions): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    if (body) headers['content-length'] = String(body.length);
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
    const signal = init?.signal ?? request.signal;
    return new Promise<Response>((resolve, reject) => {
      const outgoing = send(
        url,
        { method: request.method, headers, ...(url.protocol === 'https:' && options.ca ? { ca: options.ca } : {}) },
        (answer: IncomingMessage) => {
          clearTimeout(timer);
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) {
            for (const one of Array.isArray(value) ? value : [value ?? '']) responseHeaders.append(name, one);
          }
          const status = answer.statusCode ?? 500;
          const noBody = status === 204 || status === 304 || request.method === 'HEAD';
          if (noBody) answer.resume();
          resolve(
            new Response(noBody ? null : (Readable.toWeb(answer) as ReadableStream<Uint8Array>), {
              status,
              statusText: answer.statusMessage ?? '',
              headers: responseHeaders,
            }),
          );
        },
      );
      const timer = setTimeout(() => outgoing.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })), options.timeoutMs);
      const abort = () => outgoing.destroy(signal?.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));
      if (signal?.aborted) abort();
      signal?.addEventListener('abort', abort, { once: true });
      outgoing.on('error', (error) => {
        clearTimeout(timer);
        reject(signal?.aborted ? error : connectionErrorOf(error, url.origin));
      });
      outgoing.end(body);
    });
  };
}
