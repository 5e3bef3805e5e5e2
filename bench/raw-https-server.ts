// A minimal HTTP/1.1 server over keep-alive TLS connections, for the bench's stand-ins of remote
// endpoints: it reads a request's line, its headers as far as its length, and its body, answers
// with a status and no body, and keeps the connection. node:https spends several times the CPU
// per request on what such an endpoint never needs (header objects, streams, a response object),
// and on two shared cores that CPU is taken from the service being measured, whereas a real
// endpoint runs on another machine.
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { createServer, type TLSSocket } from 'node:tls';

export interface RawServerRequest {
  method: string;
  path: string;
  body: Buffer;
}

/** Answers a request with the status it returns, without a body. */
export type RawRequestHandler = (request: RawServerRequest) => number;

export interface RawHttpsServer {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

const HEAD_END = Buffer.from('\r\n\r\n');

const REASONS: Record<number, string> = { 200: 'OK', 204: 'No Content', 400: 'Bad Request', 404: 'Not Found', 410: 'Gone', 411: 'Length Required' };

const answers = new Map<number, Buffer>();

/** The bytes of an answer with `status` and no body, made once per status. */
function answerBytes(status: number): Buffer {
  let bytes = answers.get(status);
  if (!bytes) {
    const length = status === 204 || status === 304 ? '' : 'content-length: 0\r\n';
    bytes = Buffer.from(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Status'}\r\n${length}\r\n`, 'latin1');
    answers.set(status, bytes);
  }
  return bytes;
}

/** A complete request at the start of `buffer` and its length; undefined while incomplete. */
export function parseRequest(buffer: Buffer): { request: RawServerRequest; length: number } | undefined {
  const headEnd = buffer.indexOf(HEAD_END);
  if (headEnd < 0) return undefined;
  const head = buffer.toString('latin1', 0, headEnd);
  const lineEnd = head.indexOf('\r\n');
  const [method = '', path = '', version = ''] = (lineEnd < 0 ? head : head.slice(0, lineEnd)).split(' ');
  if (!version.startsWith('HTTP/1.')) throw new Error(`not an HTTP/1.x request: ${head.slice(0, 40)}`);
  const lower = head.toLowerCase();
  if (lower.includes('\r\ntransfer-encoding:')) throw new Error('a chunked request: only sized bodies are read');
  const lengthAt = lower.indexOf('\r\ncontent-length:');
  let length = 0;
  if (lengthAt >= 0) {
    const valueEnd = lower.indexOf('\r\n', lengthAt + 2);
    length = Number.parseInt(lower.slice(lengthAt + 17, valueEnd < 0 ? undefined : valueEnd), 10);
    if (!Number.isInteger(length) || length < 0) throw new Error('a malformed content-length');
  }
  const bodyStart = headEnd + 4;
  if (buffer.length < bodyStart + length) return undefined;
  return { request: { method, path, body: buffer.subarray(bodyStart, bodyStart + length) }, length: bodyStart + length };
}

/** Serves one connection: requests are answered in order, as many as it sends. */
function serve(socket: TLSSocket, handler: RawRequestHandler) {
  let buffer: Buffer = Buffer.alloc(0);
  socket.setNoDelay(true);
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    // The answers to the requests one read brings (a pipelining client's) go out in one write.
    const answers: Buffer[] = [];
    const flush = () => {
      if (answers.length > 0) socket.write(answers.length === 1 ? (answers[0] as Buffer) : Buffer.concat(answers));
    };
    for (;;) {
      let parsed: ReturnType<typeof parseRequest>;
      try {
        parsed = parseRequest(buffer);
      } catch {
        flush();
        socket.end(answerBytes(400));
        return;
      }
      if (!parsed) break;
      buffer = buffer.subarray(parsed.length);
      answers.push(answerBytes(handler(parsed.request)));
    }
    flush();
  });
}

/** Listens on 127.0.0.1 at a port of its own, under `cert` and `key`. */
export async function startRawHttpsServer(options: { cert: string | Buffer; key: string | Buffer; handler: RawRequestHandler }): Promise<RawHttpsServer> {
  const sockets = new Set<Socket>();
  const server = createServer({ cert: options.cert, key: options.key }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serve(socket, options.handler);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
