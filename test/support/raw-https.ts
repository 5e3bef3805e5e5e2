import { connect } from 'node:tls';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Sends bytes exactly as given over TLS and reads one answer: for requests no well-behaved client
 * would send (unnormalised paths, broken headers, huge bodies), which `https.request` and `fetch`
 * would clean up or refuse first. The request goes out in chunks and stops as soon as the server
 * answers, as a real client does when a server refuses a large body early.
 */
export function rawHttpsRequest(
  port: number,
  ca: string,
  request: string | Buffer,
  options: { timeoutMs?: number; pauseAfterBytes?: number } = {},
): Promise<RawResponse> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  // Past this many bytes the client waits for an answer before it sends more, as one sending
  // `Expect: 100-continue` does: a server that refuses early must do so without the rest.
  const pauseAfterBytes = options.pauseAfterBytes ?? Number.POSITIVE_INFINITY;
  const bytes = typeof request === 'string' ? Buffer.from(request, 'utf8') : request;
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    let settled = false;
    const socket = connect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () => writeFrom(0));

    // Written, never ended: a TLS close_notify from the client would make the server drop the request.
    function writeFrom(offset: number) {
      if (settled || received.length > 0 || socket.destroyed || offset >= bytes.length || offset >= pauseAfterBytes) return;
      const end = Math.min(offset + CHUNK_BYTES, pauseAfterBytes);
      socket.write(bytes.subarray(offset, end), (error) => {
        if (!error) writeFrom(end);
      });
    }

    function parse(): RawResponse | undefined {
      const text = received.toString('latin1');
      const headerEnd = text.indexOf('\r\n\r\n');
      if (headerEnd < 0) return undefined;
      const [statusLine, ...lines] = text.slice(0, headerEnd).split('\r\n');
      const status = statusLine?.match(/^HTTP\/1\.[01] (\d{3})/)?.[1];
      if (!status) return undefined;
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = received.subarray(Buffer.byteLength(text.slice(0, headerEnd + 4), 'latin1'));
      const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
      if (length !== undefined && body.length < length) return undefined;
      return { status: Number(status), headers, body: body.subarray(0, length).toString('utf8') };
    }

    function settle(response: RawResponse | undefined, error?: Error) {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (response) resolve(response);
      else reject(error ?? new Error(`no complete HTTP response: ${JSON.stringify(received.toString('utf8').slice(0, 200))}`));
    }

    socket.setTimeout(timeoutMs, () => settle(undefined, new Error('raw request timed out')));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const response = parse();
      if (response) settle(response);
    });
    // The server may close or reset a connection it refused mid-body; what it answered still counts.
    socket.on('end', () => settle(parse()));
    socket.on('error', (error) => settle(parse(), error));
  });
}

/** How many bytes of a raw request are its request line and headers. */
export function headerLength(request: string): number {
  return Buffer.byteLength(request.slice(0, request.indexOf('\r\n\r\n') + 4));
}

/** A request line and headers in HTTP/1.1 form; the body, when given, gets its Content-Length. */
export function rawRequest(method: string, target: string, headers: Record<string, string>, body = ''): string {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: localhost', 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
