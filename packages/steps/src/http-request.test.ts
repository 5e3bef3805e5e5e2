import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressRefusedError, StepTimeoutError } from '@ces/language';
import { runStep, testLibraryOptions } from './run-step-for-test.ts';

let server: Server;
let base: string;
const strict = { http: { allowPrivateNetworks: false, timeoutMs: 5000, maxResponseBytes: 1024 } };

function handle(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://x');
  if (url.pathname === '/hang') return; // never answers
  if (url.pathname === '/big') {
    response.end('x'.repeat(200 * 1024));
    return;
  }
  if (url.pathname === '/big-head') {
    // What a HEAD answer for a large resource looks like: its length, and no body.
    response.writeHead(200, { 'content-length': String(200 * 1024) });
    response.end();
    return;
  }
  if (url.pathname === '/big-chunked') {
    // No Content-Length: only counting the bytes as they come can stop it.
    for (let i = 0; i < 200; i += 1) response.write('x'.repeat(1024));
    response.end();
    return;
  }
  if (url.pathname === '/drip') {
    response.writeHead(200, { 'content-length': '100' });
    const drip = setInterval(() => response.write('x'), 50);
    response.on('close', () => clearInterval(drip));
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    response.setHeader('x-echo', 'yes');
    response.statusCode = url.pathname === '/missing' ? 404 : 200;
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        method: request.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        auth: request.headers.authorization ?? null,
        contentType: request.headers['content-type'] ?? null,
        body: Buffer.concat(chunks).toString('utf8'),
      }),
    );
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('http.request', () => {
  it('sends a GET with headers and query, and returns status, headers and body', async () => {
    const result = (await runStep('http.request', {
      url: `${base}/items?a=1`,
      headers: '{"Authorization": "Bearer t"}',
      query: { b: 'two words' },
    })) as { status: number; headers: Record<string, string>; body: string };
    expect(result.status).toBe(200);
    expect(result.headers['x-echo']).toBe('yes');
    expect(JSON.parse(result.body)).toEqual({
      method: 'GET',
      path: '/items',
      query: { a: '1', b: 'two words' },
      auth: 'Bearer t',
      contentType: null,
      body: '',
    });
  });

  it('sends a body with its content type, and reports error statuses without failing', async () => {
    const result = (await runStep('http.request', { method: 'post', url: `${base}/missing`, body: '{"x":1}', contentType: 'application/json' })) as {
      status: number;
      body: string;
    };
    expect(result.status).toBe(404);
    expect(JSON.parse(result.body)).toMatchObject({ method: 'POST', contentType: 'application/json', body: '{"x":1}' });
  });

  it('refuses loopback destinations by default, literal or resolved', async () => {
    await expect(runStep('http.request', { url: `${base}/` }, strict)).rejects.toBeInstanceOf(EgressRefusedError);
    const port = new URL(base).port;
    await expect(runStep('http.request', { url: `http://localhost:${port}/` }, strict)).rejects.toMatchObject({
      retryable: false,
      message: 'requests to localhost are not allowed: it resolves to a non-public address',
    });
    await expect(runStep('http.request', { url: `http://[::ffff:127.0.0.1]:${port}/` }, strict)).rejects.toBeInstanceOf(EgressRefusedError);
    await expect(runStep('http.request', { url: 'http://169.254.169.254/latest/meta-data/' }, strict)).rejects.toThrow(/cloud metadata/);
  });

  it('reaches an allowed host even when private networks are refused', async () => {
    const port = new URL(base).port;
    const result = await runStep('http.request', { url: `http://localhost:${port}/ok` }, { http: { ...strict.http, allowedHosts: ['localhost'] } });
    expect(result).toMatchObject({ status: 200 });
  });

  it('refuses other schemes, credentials and malformed URLs without retry', async () => {
    await expect(runStep('http.request', { url: 'file:///etc/passwd' })).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining('only http and https'),
    });
    await expect(runStep('http.request', { url: 'http://u:p@example.com/' })).rejects.toMatchObject({ retryable: false });
    await expect(runStep('http.request', { url: 'not a url' })).rejects.toMatchObject({ retryable: false });
  });

  it('fails a response larger than the limit', async () => {
    await expect(runStep('http.request', { url: `${base}/big` }, { http: { ...testLibraryOptions.http, maxResponseBytes: 1024 } })).rejects.toMatchObject({
      retryable: false,
      message: 'HTTP response body is larger than 1024 bytes',
    });
  });

  it('counts the bytes of a body sent without a declared length', async () => {
    await expect(
      runStep('http.request', { url: `${base}/big-chunked` }, { http: { ...testLibraryOptions.http, maxResponseBytes: 1024 } }),
    ).rejects.toMatchObject({
      retryable: false,
      message: 'HTTP response body is larger than 1024 bytes',
    });
  });

  it('takes the length a HEAD answer declares for a body it does not send', async () => {
    const result = (await runStep(
      'http.request',
      { url: `${base}/big-head`, method: 'HEAD' },
      { http: { ...testLibraryOptions.http, maxResponseBytes: 1024 } },
    )) as { status: number; body: string; headers: Record<string, string> };
    expect(result).toMatchObject({ status: 200, body: '' });
    expect(result.headers['content-length']).toBe(String(200 * 1024));
  });

  it('times out while the body is still arriving', async () => {
    await expect(runStep('http.request', { url: `${base}/drip` }, { http: { ...testLibraryOptions.http, timeoutMs: 300 } })).rejects.toMatchObject({
      retryable: true,
      message: 'HTTP request timed out after 300 ms',
    });
  });

  it('times out, retryably', async () => {
    await expect(runStep('http.request', { url: `${base}/hang`, timeoutMs: '100' })).rejects.toMatchObject({
      retryable: true,
      message: 'HTTP request timed out after 100 ms',
    });
  });

  it('is not interrupted by a cancellation, only by its step timeout', async () => {
    const cancelled = new AbortController();
    cancelled.abort('cancelled');
    expect(await runStep('http.request', { url: `${base}/ok` }, testLibraryOptions, cancelled.signal)).toMatchObject({ status: 200 });

    const timedOut = new AbortController();
    const pending = runStep('http.request', { url: `${base}/hang` }, testLibraryOptions, timedOut.signal);
    timedOut.abort(new StepTimeoutError(50));
    await expect(pending).rejects.toBeInstanceOf(StepTimeoutError);
  });
});
