import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalRedis, type LocalRedis } from '@ces/local-runtime';
import { Redis } from 'ioredis';
import { waitFor, must } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

// A Redis of its own, stopped and started again, or stalled, under the API: 503 with Retry-After
// while it is away or silent, and service again once it is back, without restarting the API.
describe('the API while Redis is unreachable', () => {
  let redisDir: string;
  let redis: LocalRedis;
  let stack: Stack;

  beforeAll(async () => {
    redisDir = mkdtempSync(join(tmpdir(), 'ces-outage-redis-'));
    redis = await startLocalRedis({ dataDir: redisDir, appendOnly: true });
    stack = await startStack({ redisUrl: redis.url, workers: 0, env: { REDIS_COMMAND_TIMEOUT_MS: '300' } });
    stack.redis.on('error', () => {});
  });

  afterAll(async () => {
    await stack?.stop();
    await redis?.close();
    if (redisDir) rmSync(redisDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After, shows no internals, and recovers by itself', async () => {
    const { alice } = stack.credentials;
    expect((await stack.call('GET', '/choreos', alice)).status).toBe(200);
    const apiPid = stack.api.pid;

    await redis.close();
    const down = await waitFor(
      async () => {
        const res = await stack.call('GET', '/choreo-executions', alice);
        return res.status === 503 ? res : undefined;
      },
      { what: 'a 503 while Redis is down' },
    );
    expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
    expect(down.json().error).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The service is briefly unavailable. Retry shortly.',
      requestId: down.headers['x-request-id'],
    });
    expect(down.text).not.toMatch(/redis|ECONN|stack|at /i);

    const run = await stack.call('POST', '/choreos/Library/Utilities/Encoding/Base64Encode?mode=async', alice, {
      accept: 'application/xml',
      body: JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] }),
    });
    expect(run.status).toBe(503);
    expect(run.headers['retry-after']).toBeDefined();
    expect(run.text).toContain('<code>SERVICE_UNAVAILABLE</code>');
    const ready = await stack.http.request('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.headers['retry-after']).toBe('2');
    expect((await stack.http.request('GET', '/healthz')).status).toBe(200);

    redis = await startLocalRedis({ dataDir: redisDir, port: redis.port, appendOnly: true });
    await waitFor(async () => (await stack.call('GET', '/choreo-executions', alice)).status === 200, {
      timeoutMs: 20_000,
      intervalMs: 200,
      what: 'the API to serve again',
    });
    const accepted = await stack.call('POST', '/choreos/Library/Utilities/Encoding/Base64Encode?mode=async', alice, {
      body: JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] }),
    });
    expect(accepted.status, accepted.text).toBe(202);
    const { id } = accepted.json();
    expect((await stack.call('GET', `/choreo-executions/${id}`, alice)).json().execution.status).toBe('RUNNING');
    expect((await stack.call('DELETE', `/choreo-executions/${id}`, alice)).status).toBe(204);
    expect((await stack.http.request('GET', '/readyz')).status).toBe(200);
    expect(stack.api.running).toBe(true);
    expect(stack.api.pid).toBe(apiPid);
  });

  it('answers 503 when Redis stops answering without dropping its connections, and recovers', async () => {
    const { alice } = stack.credentials;
    const accepted = await stack.call('POST', '/choreos/Library/Utilities/Encoding/Base64Encode?mode=async', alice, {
      body: JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] }),
    });
    expect(accepted.status, accepted.text).toBe(202);
    const { id } = accepted.json();
    const poll = () => stack.call('GET', `/choreo-executions/${id}`, alice);
    expect((await poll()).status).toBe(200);

    // Every client of this Redis waits, the API's included; their connections stay open.
    const pauser = new Redis(redis.url);
    try {
      await pauser.call('CLIENT', 'PAUSE', '4000', 'ALL');
      const stalled = await poll();
      expect(stalled.status, stalled.text).toBe(503);
      expect(stalled.headers['retry-after']).toBe('2');
      expect(stalled.json().error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The service is briefly unavailable. Retry shortly.' });
      expect(stalled.text).not.toMatch(/redis|timed out|stack|at /i);
      expect(stack.api.running).toBe(true);
    } finally {
      pauser.disconnect();
    }
    const recovered = await waitFor(
      async () => {
        const res = await poll();
        return res.status === 200 ? res : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 200, what: 'the API to answer once Redis does' },
    );
    expect(recovered.json().execution).toMatchObject({ id, status: 'RUNNING' });
    expect((await stack.call('DELETE', `/choreo-executions/${id}`, alice)).status).toBe(204);
  });

  it('starts a new API process while Redis stalls, once Redis answers again', async () => {
    const pauser = new Redis(redis.url);
    try {
      // Longer than the API's command timeout (300 ms here): the accounts file must wait it out.
      await pauser.call('CLIENT', 'PAUSE', '2000', 'ALL');
      const index = await stack.addApi();
      const started = must(stack.apis[index]);
      expect(started.process.running).toBe(true);
      expect((await started.http.request('GET', '/readyz')).status).toBe(200);
    } finally {
      pauser.disconnect();
    }
  });

  it('answers 503 to a run with an Idempotency-Key while Redis stalls, and the retry gets that run', async () => {
    const { alice } = stack.credentials;
    const body = JSON.stringify({ inputs: [{ name: 'Text', value: 'stalled' }] });
    const run = (headers: Record<string, string>) =>
      stack.call('POST', '/choreos/Library/Utilities/Encoding/Base64Encode?mode=async', alice, { body, headers });
    const pauser = new Redis(redis.url);
    let withoutKey: ReturnType<typeof run>;
    try {
      // Writes stall, the accept among them; reads go on, so that the credentials are read as
      // ever (a read that timed out would answer the run without a key 503 like any request).
      await pauser.call('CLIENT', 'PAUSE', '3000', 'WRITE');
      const keyed = await run({ 'idempotency-key': 'stalled-run' });
      expect(keyed.status, keyed.text).toBe(503);
      expect(keyed.headers['retry-after']).toBe('2');
      // Without a key a retry would start it twice, so the run is waited for until Redis answers.
      withoutKey = run({});
    } finally {
      pauser.disconnect();
    }
    expect((await withoutKey).status).toBe(202);

    const retried = await waitFor(
      async () => {
        const res = await run({ 'idempotency-key': 'stalled-run' });
        return res.status === 202 ? res : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 200, what: 'the retry to be answered' },
    );
    // The first attempt was recorded once Redis answered; the retry is answered with it.
    expect(retried.headers['idempotent-replayed']).toBe('true');
    const { id } = retried.json();
    expect((await stack.call('GET', `/choreo-executions/${id}`, alice)).status).toBe(200);
  });
});
