import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSelfSignedCertificate, readCertificate } from '@ces/local-runtime';
import type { ExecutionStore } from '@ces/store';
import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createOutputReadGate, type OutputReadGate } from './output-read-gate.ts';
import { listen, type RunningServer } from './server.ts';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';
import { openRawTls } from './test-support/raw-tls-connection.ts';

// Over real HTTPS: an answer with outputs keeps its place at the gate until it has been sent, so
// a client that stops reading holds its answer's memory, and its place, not more.
describe('reads of outputs, until their answers are sent', () => {
  const dir = mkdtempSync(join(tmpdir(), 'output-reads-sent-test-'));
  let t: InProcessApp;
  let server: RunningServer;
  let ca: string;
  let reads = 0;
  let atTheGate = 0;
  /** When set, reads wait for it: a slow Redis reply. */
  let slowRead: Promise<void> | undefined;

  beforeAll(async () => {
    const real = createOutputReadGate({ perProcess: 1, perAccount: 1, maxWaitMs: 60_000 });
    const gate: OutputReadGate = {
      enter: (account) => {
        atTheGate += 1;
        return real.enter(account);
      },
    };
    t = await startInProcessApp({
      redisUrl: inject('redisUrl'),
      wrap: {
        outputReads: (store): ExecutionStore => ({
          ...store,
          summary: async (id, options) => {
            reads += 1;
            await slowRead;
            return store.summary(id, options);
          },
        }),
      },
      outputReadGate: gate,
    });
    const tls = readCertificate(await ensureSelfSignedCertificate(dir));
    ca = tls.cert;
    server = await listen({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1', tls });
  });

  afterAll(async () => {
    await server?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A raw request for the outputs of an ended execution with `size` characters of them. */
  async function outputsRequest(size: number): Promise<string> {
    const run = await t.call('POST', '/choreos/Library/Utilities/Encoding/Base64Encode?mode=async', t.credentials.alice, {
      body: JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] }),
    });
    const { id } = await run.json();
    await t.executions.end(id, { status: 'SUCCESS', outputs: { Base64EncodedText: 'y'.repeat(size) } });
    const { alice } = t.credentials;
    return [
      `GET /service-api/1.0/choreo-executions/${id}?view=outputs HTTP/1.1`,
      'Host: localhost',
      `Authorization: Basic ${Buffer.from(`${alice.name}:${alice.secret}`).toString('base64')}`,
      `x-service-domain: /${alice.account}/master`,
      '',
      '',
    ].join('\r\n');
  }

  it('keeps the place of a read whose client leaves while Redis answers it, until the read is done', async () => {
    reads = 0;
    atTheGate = 0;
    const request = await outputsRequest(1024);
    const slow = Promise.withResolvers<void>();
    slowRead = slow.promise;
    const leaving = await openRawTls(server.port, ca);
    leaving.socket.write(request);
    await waitFor(() => reads === 1, { what: 'the first read' });
    leaving.socket.destroy();
    await waitFor(() => leaving.closed(), { what: 'the first client to be gone' });

    const next = await openRawTls(server.port, ca);
    next.socket.write(request);
    await waitFor(() => atTheGate === 2, { what: 'the next read to wait at the gate' });
    expect(reads).toBe(1);
    slowRead = undefined;
    slow.resolve();
    await waitFor(() => next.received().includes('\r\n\r\n'), { timeoutMs: 20_000, what: 'the next read, once the first is done' });
    expect(next.received()).toMatch(/^HTTP\/1\.1 200/);
    next.socket.destroy();
  });

  it('lets the next read in only once the answer before it is sent or its connection gone', async () => {
    reads = 0;
    atTheGate = 0;
    // Far more than the socket buffers hold: the answer cannot be sent to a client that reads nothing.
    const request = await outputsRequest(8 * 1024 * 1024);

    const stalled = await openRawTls(server.port, ca);
    stalled.socket.pause();
    stalled.socket.write(request);
    await waitFor(() => reads === 1, { what: 'the first read' });

    // One that gives up while it waits at the gate must not keep a place it will never use.
    const leaver = await openRawTls(server.port, ca);
    leaver.socket.write(request);
    await waitFor(() => atTheGate === 2, { what: 'a read to wait at the gate' });
    leaver.socket.destroy();

    const patient = await openRawTls(server.port, ca);
    patient.socket.write(request);
    await waitFor(() => atTheGate === 3, { what: 'another read to wait at the gate' });
    expect(reads).toBe(1);

    stalled.socket.destroy();
    await waitFor(() => patient.received().includes('\r\n\r\n'), { timeoutMs: 20_000, what: 'the last read, once the first is gone' });
    expect(patient.received()).toMatch(/^HTTP\/1\.1 200/);
    patient.socket.destroy();
  });
});
