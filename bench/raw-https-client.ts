// A minimal HTTP/1.1 client over keep-alive TLS connections, for load generation: each request is
// encoded once and written as it is; an answer is read as far as its status, its length and its
// body. A general-purpose client (undici) spends about twice the CPU per request on things a
// closed-loop load generator never needs (header objects, streams, redirects, retries), and on two
// shared cores that CPU is taken from the server being measured. The same client loads the
// service and bare Hono.
import { connect, type TLSSocket } from 'node:tls';

export interface RawResponse {
  statusCode: number;
  body: string;
}

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The bytes of a request, encoded once and sent as many times as needed. */
export function encodeRequest(request: RawRequest, host: string): Buffer {
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const lines = [`${request.method} ${request.path} HTTP/1.1`, `host: ${host}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  if (body) lines.push(`content-length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return body ? Buffer.concat([head, body]) : head;
}

const HEAD_END = Buffer.from('\r\n\r\n');

interface Waiter {
  resolve(response: RawResponse): void;
  reject(error: Error): void;
}

/** Where a complete answer ends in `buffer`, and what it is; undefined while incomplete. */
function parseResponse(buffer: Buffer): { response: RawResponse; length: number } | undefined {
  const headEnd = buffer.indexOf(HEAD_END);
  if (headEnd < 0) return undefined;
  const head = buffer.toString('latin1', 0, headEnd);
  const statusCode = Number(head.slice(9, 12));
  if (!head.startsWith('HTTP/1.1 ') || !Number.isInteger(statusCode)) throw new Error(`not an HTTP/1.1 answer: ${head.slice(0, 40)}`);
  const bodyStart = headEnd + 4;
  const lower = head.toLowerCase();
  const lengthAt = lower.indexOf('\r\ncontent-length:');
  if (lengthAt >= 0) {
    const valueEnd = lower.indexOf('\r\n', lengthAt + 2);
    const length = Number.parseInt(lower.slice(lengthAt + 17, valueEnd < 0 ? undefined : valueEnd), 10);
    if (buffer.length < bodyStart + length) return undefined;
    return { response: { statusCode, body: buffer.toString('utf8', bodyStart, bodyStart + length) }, length: bodyStart + length };
  }
  if (lower.includes('\r\ntransfer-encoding: chunked')) {
    const parts: Buffer[] = [];
    let at = bodyStart;
    for (;;) {
      const lineEnd = buffer.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = Number.parseInt(buffer.toString('latin1', at, lineEnd), 16);
      if (Number.isNaN(size)) throw new Error('a malformed chunk size');
      const chunkEnd = lineEnd + 2 + size;
      if (buffer.length < chunkEnd + 2) return undefined;
      if (size === 0) return { response: { statusCode, body: Buffer.concat(parts).toString('utf8') }, length: chunkEnd + 2 };
      parts.push(buffer.subarray(lineEnd + 2, chunkEnd));
      at = chunkEnd + 2;
    }
  }
  // No body: 204, 304, or an answer to HEAD.
  return { response: { statusCode, body: '' }, length: bodyStart };
}

/** One keep-alive TLS connection with at most one request in flight. */
class RawConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private waiter: Waiter | undefined;
  private failure: Error | undefined;

  private readonly socket: TLSSocket;

  private constructor(socket: TLSSocket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('the server closed the connection')));
  }

  static open(options: { host: string; port: number; ca: string; servername: string }): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: options.host, port: options.port, ca: options.ca, servername: options.servername }, () => {
        socket.off('error', reject);
        socket.setNoDelay(true);
        resolve(new RawConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  request(bytes: Buffer): Promise<RawResponse> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.waiter) return Promise.reject(new Error('a request is already in flight on this connection'));
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
      this.socket.write(bytes);
    });
  }

  close() {
    this.failure ??= new Error('closed');
    this.socket.destroy();
  }

  private onData(chunk: Buffer) {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    let parsed: ReturnType<typeof parseResponse>;
    try {
      parsed = parseResponse(this.buffer);
    } catch (error) {
      this.fail(error as Error);
      return;
    }
    if (!parsed) return;
    this.buffer = this.buffer.subarray(parsed.length);
    const waiter = this.waiter;
    this.waiter = undefined;
    if (!waiter) this.fail(new Error('an answer nobody asked for'));
    else waiter.resolve(parsed.response);
  }

  private fail(error: Error) {
    this.failure ??= error;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.reject(error);
  }
}

/** `size` keep-alive connections to one origin; each request takes a free one. */
export interface RawPool {
  request(bytes: Buffer): Promise<RawResponse>;
  close(): void;
}

export async function openRawPool(options: { origin: string; ca: string; servername: string; size: number }): Promise<RawPool> {
  const url = new URL(options.origin);
  if (url.protocol !== 'https:') throw new Error(`the raw client speaks HTTPS only, not ${url.protocol}`);
  const connections = await Promise.all(
    Array.from({ length: options.size }, () =>
      RawConnection.open({ host: url.hostname, port: Number(url.port || 443), ca: options.ca, servername: options.servername }),
    ),
  );
  const free = [...connections];
  const queued: ((connection: RawConnection) => void)[] = [];
  const release = (connection: RawConnection) => {
    const next = queued.shift();
    if (next) next(connection);
    else free.push(connection);
  };
  return {
    async request(bytes) {
      const connection = free.pop() ?? (await new Promise<RawConnection>((resolve) => queued.push(resolve)));
      try {
        return await connection.request(bytes);
      } finally {
        release(connection);
      }
    },
    close() {
      for (const connection of connections) connection.close();
    },
  };
}
