import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { EgressRefusedError, StepFailedError } from '@ces/language';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpPoster } from './http-poster.ts';

// A real HTTP server on loopback: what the poster sends, and how it meets slow, large and refused answers.
describe('HTTP poster', () => {
  let server: Server;
  let origin = '';
  let connections = 0;
  const received: { url: string; signature: string | undefined; body: string }[] = [];
  const held: ServerResponse[] = [];
  const post = createHttpPoster({ allowPrivateNetworks: true, timeoutMs: 5_000, maxResponseBytes: 10_000 });

  function answer(request: IncomingMessage, response: ServerResponse, body: string) {
    received.push({ url: request.url ?? '', signature: request.headers['webhook-signature'] as string | undefined, body });
    if (request.url === '/held' || body === 'hold') held.push(response);
    else if (request.url?.startsWith('/echo')) response.writeHead(200).end(`echo ${body}`);
    else if (request.url === '/close') response.writeHead(200, { connection: 'close' }).end(`closing ${body}`);
    else if (request.url === '/large') response.writeHead(200).end('x'.repeat(20_000));
    else if (request.url === '/chunked') {
      response.writeHead(410, { 'content-type': 'text/plain' });
      response.write('gone ');
      response.end('for good');
    } else response.writeHead(204).end();
  }

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => answer(request, response, Buffer.concat(chunks).toString('utf8')));
    });
    server.on('connection', () => {
      connections += 1;
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const response of held) response.destroy();
    held.length = 0;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const request = (body: string, timeoutMs = 5_000) => ({ headers: { 'content-type': 'application/json', 'webhook-signature': 'v1,abc' }, body, timeoutMs });

  it('sends the headers and body, gives back the status and body, and reuses its kept-alive connections', async () => {
    received.length = 0;
    const before = connections;
    expect(await post(`${origin}/hooks?x=1`, request('{"a":"ü"}'))).toEqual({ status: 204, body: '' });
    expect(await post(`${origin}/chunked`, request('{}'))).toEqual({ status: 410, body: 'gone for good' });
    expect(await post(`${origin}/hooks`, request('{}'))).toEqual({ status: 204, body: '' });
    expect(received.map(({ url, signature, body }) => [url, signature, body])).toEqual([
      ['/hooks?x=1', 'v1,abc', '{"a":"ü"}'],
      ['/chunked', 'v1,abc', '{}'],
      ['/hooks', 'v1,abc', '{}'],
    ]);
    for (let i = 0; i < 10; i += 1) expect((await post(`${origin}/hooks`, request('{}'))).status).toBe(204);
    // One after another, every request to a URL goes on its one kept-alive connection.
    expect(connections - before).toBe(3);
  });

  it("pipelines a turn's requests to one URL on one connection, each given its own answer", async () => {
    const before = connections;
    const bodies = Array.from({ length: 12 }, (_, index) => `{"n":${index}}`);
    const answers = await Promise.all(bodies.map((body) => post(`${origin}/echo?pipelined`, request(body))));
    expect(answers).toEqual(bodies.map((body) => ({ status: 200, body: `echo ${body}` })));
    expect(connections - before).toBe(1);
  });

  it('a request past its deadline gives up its connection, and those pipelined behind it are answered on another', async () => {
    const before = connections;
    const [late, ...behind] = await Promise.allSettled([
      post(`${origin}/echo?deadline`, request('hold', 300)),
      post(`${origin}/echo?deadline`, request('b')),
      post(`${origin}/echo?deadline`, request('c')),
    ]);
    expect(late).toMatchObject({ status: 'rejected', reason: new StepFailedError('HTTP request timed out after 300 ms') });
    expect(behind).toEqual([
      { status: 'fulfilled', value: { status: 200, body: 'echo b' } },
      { status: 'fulfilled', value: { status: 200, body: 'echo c' } },
    ]);
    // The one that timed out was first in line (a slow answer, not a lost one): the others go on pipelined.
    expect(connections - before).toBe(2);
  });

  it('a URL slow to answer holds up no other URL of its host', async () => {
    const slow = post(`${origin}/held`, request('{}', 2_000)).catch((error: Error) => error);
    expect(await post(`${origin}/echo`, request('quick'))).toEqual({ status: 200, body: 'echo quick' });
    expect(await slow).toBeInstanceOf(StepFailedError);
  });

  it('an endpoint that closes its connection after each answer gets every request, one per connection', async () => {
    const before = connections;
    const bodies = ['1', '2', '3', '4', '5'];
    expect(await Promise.all(bodies.map((body) => post(`${origin}/close`, request(body))))).toEqual(
      bodies.map((body) => ({ status: 200, body: `closing ${body}` })),
    );
    expect(connections - before).toBeGreaterThanOrEqual(5);
  });

  it('refuses a header that would break its line or is no header, and frames the request itself', async () => {
    for (const headers of [{ 'x-evil': 'a\r\nx-injected: 1' }, { 'x-evil': 'a\u010d\u010ax-injected: 1' }, { 'bad name': '1' }] as Record<string, string>[])
      await expect(post(`${origin}/echo`, { ...request('{}'), headers })).rejects.toThrow(/is not a valid header/);
    received.length = 0;
    const answer = await post(`${origin}/echo?framed`, {
      ...request('{"a":1}'),
      headers: { host: 'elsewhere.example', 'content-length': '1', 'transfer-encoding': 'chunked', connection: 'close' },
    });
    expect(answer).toEqual({ status: 200, body: 'echo {"a":1}' });
  });

  it('fails a request unanswered within its timeout, and one whose answer is too large', async () => {
    const started = Date.now();
    await expect(post(`${origin}/held`, request('{}', 200))).rejects.toThrow(new StepFailedError('HTTP request timed out after 200 ms'));
    expect(Date.now() - started).toBeLessThan(4_000);
    await expect(post(`${origin}/large`, request('{}'))).rejects.toThrow(/larger than 10000 bytes/);
    // The connections those left are given up; the next request still goes through.
    expect((await post(`${origin}/hooks`, request('{}'))).status).toBe(204);
  });

  it('fails an unreachable endpoint, and one the egress policy refuses, with the refusal as its cause', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    await expect(post(`http://127.0.0.1:${port}/hooks`, request('{}'))).rejects.toThrow(/HTTP request failed/);

    const strict = createHttpPoster({ allowPrivateNetworks: false, timeoutMs: 5_000, maxResponseBytes: 10_000 });
    for (const url of [`${origin}/hooks`, `http://localhost:${new URL(origin).port}/hooks`]) {
      const failure = await strict(url, request('{}')).then(
        () => undefined,
        (error: Error) => error,
      );
      expect(failure instanceof EgressRefusedError || failure?.cause instanceof EgressRefusedError, String(failure)).toBe(true);
    }
  });
});

/** A raw TCP server on loopback whose connections `serve` handles; its origin and how to close it. */
async function rawServer(serve: (socket: Socket) => void) {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    serve(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('HTTP poster on connections its server mishandles', () => {
  const poster = () => createHttpPoster({ allowPrivateNetworks: true, timeoutMs: 5_000, maxResponseBytes: 10_000 });

  it('takes an answer no request asked for (a 408 on an idle connection) as the end of that connection', async () => {
    let connections = 0;
    const server = await rawServer((socket) => {
      connections += 1;
      const first = connections === 1;
      socket.on('data', () => {
        // On the first connection, right behind the answer, one nobody asked for.
        socket.write(`HTTP/1.1 204 No Content\r\n\r\n${first ? 'HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\n\r\n' : ''}`);
      });
    });
    const post = poster();
    const request = { headers: {}, body: '{}', timeoutMs: 5_000 };
    try {
      expect(await post(`${server.origin}/hooks`, request)).toEqual({ status: 204, body: '' });
      expect(await post(`${server.origin}/hooks`, request)).toEqual({ status: 204, body: '' });
      expect(connections).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("writes a request lost behind another's deadline once more, on a connection of its own, and fails it at its own deadline", async () => {
    const arrivals: Record<string, number> = {};
    const server = await rawServer((socket) => {
      // Reads and never answers.
      socket.on('data', (chunk: Buffer) => {
        for (const [, marker] of chunk.toString('latin1').matchAll(/"m":"(\w)"/g)) if (marker) arrivals[marker] = (arrivals[marker] ?? 0) + 1;
      });
    });
    const post = poster();
    try {
      const outcomes = await Promise.allSettled(
        ['a', 'b', 'c'].map((marker, index) =>
          post(`${server.origin}/hooks`, { headers: {}, body: `{"m":"${marker}"}`, timeoutMs: [150, 600, 600][index] as number }),
        ),
      );
      expect(outcomes.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'answered'))).toEqual([
        'StepFailedError: HTTP request timed out after 150 ms',
        'StepFailedError: HTTP request timed out after 600 ms',
        'StepFailedError: HTTP request timed out after 600 ms',
      ]);
      expect(arrivals).toEqual({ a: 1, b: 2, c: 2 });
    } finally {
      await server.close();
    }
  });
});

describe('HTTP poster on an endpoint that reads one request per connection', () => {
  it('stops pipelining to it once a pipelined request went unanswered', { timeout: 15_000 }, async () => {
    const server = await rawServer((socket) => {
      // Answers the first request of the connection and ignores the rest, keeping it open.
      socket.once('data', () => socket.write('HTTP/1.1 204 No Content\r\n\r\n'));
    });
    const post = createHttpPoster({ allowPrivateNetworks: true, timeoutMs: 5_000, maxResponseBytes: 10_000 });
    const request = (timeoutMs: number) => ({ headers: {}, body: '{}', timeoutMs });
    try {
      const first = await Promise.allSettled([post(`${server.origin}/hooks`, request(400)), post(`${server.origin}/hooks`, request(400))]);
      expect(first.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected']);
      // From now on one request per connection: every one answered.
      const next = await Promise.all([1, 2, 3].map(() => post(`${server.origin}/hooks`, request(2_000))));
      expect(next.map((answer) => answer.status)).toEqual([204, 204, 204]);
    } finally {
      await server.close();
    }
  });
});

// A raw server that drops a kept-alive connection as its second request arrives, as one whose
// keep-alive timeout ends just as the client reuses the connection.
describe('HTTP poster on a connection its server drops', () => {
  it('sends a request again on a new connection when a kept-alive one is dropped before its answer', async () => {
    let requests = 0;
    const sockets = new Set<Socket>();
    const server = createTcpServer((socket) => {
      sockets.add(socket);
      let seen = 0;
      socket.on('data', (chunk: Buffer) => {
        const text = chunk.toString('latin1');
        const arrived = text.split('POST ').length - 1;
        for (let index = 0; index < arrived; index += 1) {
          seen += 1;
          requests += 1;
          if (seen === 2) {
            socket.destroy();
            return;
          }
          socket.write('HTTP/1.1 204 No Content\r\n\r\n');
        }
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const post = createHttpPoster({ allowPrivateNetworks: true, timeoutMs: 5_000, maxResponseBytes: 10_000 });
    const request = { headers: {}, body: '{}', timeoutMs: 5_000 };
    try {
      expect(await post(`${origin}/hooks`, request)).toEqual({ status: 204, body: '' });
      expect(await post(`${origin}/hooks`, request)).toEqual({ status: 204, body: '' });
      // The dropped request, and the same again on a new connection.
      expect(requests).toBe(3);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
