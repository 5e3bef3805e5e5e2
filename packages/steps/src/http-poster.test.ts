import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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
    if (request.url === '/held') held.push(response);
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
    // Undici's pool may open a second connection as the first is being freed, and no more.
    expect(connections - before).toBeLessThanOrEqual(2);
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
