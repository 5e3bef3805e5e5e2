import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ensureSelfSignedCertificate, readCertificate } from '@ces/local-runtime';
import { createLogger, type RequestObservation } from '@ces/observability';
import { waitFor, must } from '@ces/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { listen, type RunningServer } from './server.ts';
import { openRawTls } from './test-support/raw-tls-connection.ts';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// Clients that go away before their request body is read, over a real HTTPS server: they are
// recorded as 499, never as a failure of ours (500, an error line), which any tenant could cause.
const RUN = '/service-api/1.0/choreos/Library/Utilities/Encoding/Base64Encode?mode=async';
const REQUEST_TIMEOUT_MS = 1_500;

describe('a client that leaves before its request is read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'client-disconnect-test-'));
  const lines: Record<string, unknown>[] = [];
  const observed: RequestObservation[] = [];
  let t: InProcessApp;
  let server: RunningServer;
  let ca: string;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line !== '') lines.push(JSON.parse(line));
        done();
      },
    });
    t = await startInProcessApp({
      redisUrl: inject('redisUrl'),
      logger: createLogger({ name: 'api', level: 'debug' }, sink),
      httpMetrics: (http) => ({
        ...http,
        observe: (request) => {
          observed.push(request);
          return http.observe(request);
        },
      }),
    });
    const tls = readCertificate(await ensureSelfSignedCertificate(dir));
    ca = tls.cert;
    server = await listen({
      fetch: t.app.fetch,
      port: 0,
      hostname: '127.0.0.1',
      tls,
      timeouts: { headersMs: 1_000, requestMs: REQUEST_TIMEOUT_MS, idleMs: 10_000, keepAliveMs: 1_000 },
    });
  });

  afterAll(async () => {
    await server?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    lines.length = 0;
    observed.length = 0;
  });

  const open = () => openRawTls(server.port, ca);

  const head = (framing: string) =>
    `POST ${RUN} HTTP/1.1\r\nHost: localhost\r\n` +
    `Authorization: Basic ${Buffer.from(`alice:${t.credentials.alice.secret}`).toString('base64')}\r\n` +
    `X-Service-Domain: /acme/master\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;

  /** The request's access line, once written, and what the metrics observed of it. */
  async function recorded() {
    const access = await waitFor(() => lines.find((line) => line.msg === 'request' && line.path === RUN.split('?')[0]), { what: 'the access line' });
    await waitFor(() => observed.length > 0, { what: 'the request to be observed' });
    return { access, observed: observed.map((request) => request.status) };
  }

  async function expectRecordedAsClientClosed() {
    const { access, observed: statuses } = await recorded();
    expect(access).toMatchObject({ status: 499, level: 'warn', route: '/service-api/1.0/choreos/:id' });
    expect(statuses).toEqual([499]);
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    expect(lines.find((line) => line.msg === 'request failed')).toBeUndefined();
    expect(lines.find((line) => line.msg === 'client closed the connection before its request was read')).toMatchObject({ level: 'debug' });
    const counted = await t.metrics.registry.getSingleMetricAsString('ces_http_requests_total');
    expect(counted).toMatch(/status="499"/);
    expect(counted).not.toMatch(/status="5\d\d"/);
  }

  it('records a client that disconnects mid-body (Content-Length) as 499, not as a failure', async () => {
    const connection = await open();
    connection.socket.write(`${head('Content-Length: 1000')}{"inputs": [{"name": "Text", "val`);
    // Until the handler waits for the rest of the body: authentication answers first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    connection.socket.destroy();
    await expectRecordedAsClientClosed();
  });

  it('records a client that disconnects mid-body (chunked) as 499, not as a failure', async () => {
    const connection = await open();
    connection.socket.write(`${head('Transfer-Encoding: chunked')}10\r\n{"inputs": [{"na\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    connection.socket.destroy();
    await expectRecordedAsClientClosed();
  });

  it("records a request the server's request timeout cuts off as 499, not as a failure", async () => {
    const connection = await open();
    connection.socket.write(`${head('Content-Length: 1000')}{"inputs": [`);
    await waitFor(() => connection.closed(), { timeoutMs: REQUEST_TIMEOUT_MS * 5, what: 'the server to cut the request off' });
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
    await expectRecordedAsClientClosed();
  });

  it('still answers a whole request, and still records a real failure as 500 at error level', async () => {
    const body = JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] });
    const connection = await open();
    connection.socket.write(`${head(`Content-Length: ${Buffer.byteLength(body)}`)}${body}`);
    await waitFor(() => /\r\n\r\n\{.*\}$/s.test(connection.received()), { what: 'the answer' });
    expect(connection.received()).toMatch(/^HTTP\/1\.1 202 /);
    const id = must(must(/"id":"([0-9a-f]{32})"/.exec(connection.received()))[1]);
    expect((await recorded()).access).toMatchObject({ status: 202, level: 'info' });
    connection.socket.destroy();

    lines.length = 0;
    // A record of the wrong Redis type makes every read of it fail, as a real fault would.
    await t.redis.set(t.keys.execution(id), 'not a hash');
    try {
      const failed = await t.call('GET', `/choreo-executions/${id}`, t.credentials.alice);
      expect(failed.status).toBe(500);
      expect(lines.find((line) => line.msg === 'request failed')).toMatchObject({ level: 'error' });
      expect(lines.find((line) => line.msg === 'request')).toMatchObject({ status: 500, level: 'error' });
    } finally {
      await t.redis.multi().del(t.keys.execution(id)).zrem(t.keys.running(), id).srem(t.keys.accountRunning('acme'), id).exec();
    }
  });
});
