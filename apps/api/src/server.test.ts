import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSelfSignedCertificate, readCertificate } from '@ces/local-runtime';
import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from './server.ts';
import { openRawTls } from './test-support/raw-tls-connection.ts';

describe('the HTTPS server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'server-test-'));
  let server: RunningServer;
  let ca: string;
  const serverErrors: Error[] = [];

  beforeAll(async () => {
    const paths = await ensureSelfSignedCertificate(dir);
    const tls = readCertificate(paths);
    ca = tls.cert;
    server = await listen({
      fetch: () => new Response('ok'),
      port: 0,
      hostname: '127.0.0.1',
      tls,
      timeouts: { headersMs: 400, requestMs: 800, idleMs: 600, keepAliveMs: 300 },
      onError: (error) => serverErrors.push(error),
    });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = () => openRawTls(server.port, ca);

  it('closes a connection that never sends a request', async () => {
    const connection = await open();
    await waitFor(() => connection.closed(), { timeoutMs: 10_000, what: 'the server to close a silent connection' });
  });

  it('closes a connection whose headers never end', async () => {
    const connection = await open();
    connection.socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n');
    await waitFor(() => connection.closed(), { timeoutMs: 10_000, what: 'the server to close a connection stuck in its headers' });
  });

  it('hears every error the listening server reports, and keeps serving', async () => {
    // What Node emits when accepting a connection fails: before, the first went to the listener
    // left from start-up, and the second, to none, ended the process.
    for (const code of ['EMFILE', 'ENOBUFS']) server.server.emit('error', Object.assign(new Error(`accept ${code}`), { code }));
    expect(serverErrors.map((error) => error.message)).toEqual(['accept EMFILE', 'accept ENOBUFS']);
    const connection = await open();
    connection.socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await waitFor(() => connection.received().endsWith('ok'), { timeoutMs: 10_000, what: 'the answer' });
    connection.socket.destroy();
  });

  it('still answers a request that comes', async () => {
    const connection = await open();
    connection.socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await waitFor(() => connection.received().endsWith('ok'), { timeoutMs: 10_000, what: 'the answer' });
    expect(connection.received()).toMatch(/^HTTP\/1\.1 200/);
    connection.socket.destroy();
  });
});
