import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort, startLocalRedis, type LocalRedis } from '@ces/local-runtime';
import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { writeWorkerTestCatalogue } from '../support/worker-test-catalogue.ts';

// A Redis of this file's own (AOF on), stopped and started again on the same port and data
// folder while runs are going on: workers reconnect, resume, and nothing is lost or stuck.
describe('Redis restarted mid-run', () => {
  const catalogue = writeWorkerTestCatalogue();
  const dataDir = mkdtempSync(join(tmpdir(), 'ces-redis-restart-'));
  let port = 0;
  let redis: LocalRedis;
  let stack: Stack;

  beforeAll(async () => {
    port = await findFreePort();
    redis = await startLocalRedis({ dataDir, port, appendOnly: true });
    // Its runs wait in the worker, as waits under the durable threshold do: a suspended run holds no worker.
    stack = await startStack({ redisUrl: redis.url, workers: 2, choreosDir: catalogue.dir, workerEnv: { DURABLE_WAIT_THRESHOLD_MS: '86400000' } });
  });

  afterAll(async () => {
    await stack?.stop();
    await redis?.close();
    rmSync(dataDir, { recursive: true, force: true });
    catalogue.remove();
  });

  it('completes every run after an outage longer than the job locks, and leaves none RUNNING', { timeout: 120_000 }, async () => {
    const alice = stack.credentials.alice;
    const ids = await Promise.all(Array.from({ length: 6 }, () => stack.startRun('Test/Waits', alice, { StepMilliseconds: '700' })));
    await waitFor(
      async () => {
        const records = await Promise.all(ids.map((id) => stack.executions.get(id)));
        return records.every((record) => record !== undefined && record.nextStep >= 1);
      },
      { timeoutMs: 30_000, what: 'every run to complete a step' },
    );

    await redis.close();
    const stoppedAt = Date.now();
    await waitFor(async () => (await stack.http.request('GET', '/readyz')).status === 503, { what: 'the API to notice the outage' });
    // Longer than the job lock (5 s): the locks lapse, so the runs are taken again after the outage.
    await waitFor(() => Date.now() - stoppedAt > 6_000, { what: 'the outage to outlast the job locks' });
    redis = await startLocalRedis({ dataDir, port, appendOnly: true });

    for (const id of ids) {
      const ended = await stack.waitForEnd(id, alice, 60_000);
      expect(ended.status, stack.logs()).toBe('SUCCESS');
      const output = (await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json().output;
      expect(output.CompletedSteps).toBe('10');
    }
    expect((await stack.call('GET', '/choreo-executions', alice)).json().executions).toEqual([]);
    expect(await stack.redis.zcard(stack.keys.running())).toBe(0);
    expect(stack.workers.every((worker) => worker.running)).toBe(true);
  });

  it('takes new runs and cancellations after the restart', { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const quick = await stack.call('POST', '/choreos/Test/Quick', alice);
    expect(quick.status, quick.text).toBe(200);
    expect(quick.json().execution.status).toBe('SUCCESS');

    // Interrupting the first wait needs the cancellation message: the workers' subscriptions are back.
    const id = await stack.startRun('Test/Waits', alice, { StepMilliseconds: '20000' });
    await waitFor(async () => ((await stack.executions.get(id))?.host ?? '') !== '', {
      timeoutMs: 20_000,
      what: 'a worker to take the run',
    });
    expect((await stack.call('DELETE', `/choreo-executions/${id}`, alice)).status).toBe(204);
    const ended = await stack.waitForEnd(id, alice, 15_000);
    expect(ended.status).toBe('TERMINATED_MANUALLY');
    expect((await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json().output).toEqual({ CompletedSteps: '0' });
  });
});
