import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { executionShard } from '@ces/store';
import { waitFor } from '@ces/testing';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

/** A child that holds its worker's slot for a while, and a parent that waits for it. */
const CHILD_WAIT_CHOREOS: Record<string, unknown> = {
  'Test/BusyChild': {
    description: 'Waits, in its worker unless the wait is long enough to suspend it.',
    inputs: { Milliseconds: { description: 'How long it waits.', type: 'STRING_VARIABLE' } },
    outputs: { Waited: { description: 'The wait.', type: 'STRING_VARIABLE', value: '{{steps.wait.waitedMs}}' } },
    steps: [{ id: 'wait', kind: 'control.wait', args: { milliseconds: '{{inputs.Milliseconds}}' } }],
  },
  'Test/WaitingParent': {
    description: 'Runs Test/BusyChild as its child and ends with its output.',
    timeLimitSeconds: 120,
    inputs: { Milliseconds: { description: 'How long the child waits.', type: 'STRING_VARIABLE' } },
    outputs: { Waited: { description: "The child's output.", type: 'STRING_VARIABLE', value: '{{steps.child.outputs.Waited}}' } },
    steps: [{ id: 'child', kind: 'choreo.run', args: { choreo: '/Test/BusyChild', inputs: { Milliseconds: '{{inputs.Milliseconds}}' } } }],
  },
};

function writeCatalogue(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'ces-child-waits-'));
  for (const [id, definition] of Object.entries(CHILD_WAIT_CHOREOS)) {
    mkdirSync(dirname(join(dir, `${id}.json`)), { recursive: true });
    writeFileSync(join(dir, `${id}.json`), JSON.stringify(definition));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// A parent waiting for its child gives its worker's slot back once DURABLE_WAIT_THRESHOLD_MS has
// passed, and is taken again when the child ends: with real worker processes, real Redis, real HTTPS.
describe('parents suspended while their children run', () => {
  const catalogue = writeCatalogue();
  let stack: Stack | undefined;

  afterEach(async () => {
    await stack?.stop();
    stack = undefined;
  });
  afterAll(() => catalogue.remove());

  it('all end SUCCESS with one slot per shard, where parents holding their slots would deadlock their children', { timeout: 150_000 }, async () => {
    // Three shards share WORKER_CONCURRENCY 3: one slot each. A child runs on its parent's shard
    // and waits in its worker (below the threshold): a parent holding its shard's one slot while
    // it waits would leave its child, and every other parent's there, untaken until the limit.
    stack = await startStack({
      redisUrl: inject('redisUrl'),
      workers: 1,
      choreosDir: catalogue.dir,
      env: { QUEUE_SHARDS: '3' },
      workerEnv: { WORKER_CONCURRENCY: '3', DURABLE_WAIT_THRESHOLD_MS: '500' },
    });
    const alice = stack.credentials.alice;
    const parents: string[] = [];
    const onShard = [0, 0, 0];
    // Several parents on every shard: runs go to random shards.
    for (let tries = 0; onShard.some((count) => count < 3) && tries < 60; tries += 1) {
      const id = await stack.startRun('Test/WaitingParent', alice, { Milliseconds: '300' });
      parents.push(id);
      onShard[executionShard(id)] = (onShard[executionShard(id)] ?? 0) + 1;
    }
    expect(
      onShard.every((count) => count >= 3),
      `parents per shard: ${onShard.join(', ')}`,
    ).toBe(true);

    for (const id of parents) {
      const ended = await stack.waitForEnd(id, alice, 90_000);
      expect(ended.status, `${id}: ${ended.lasterror ?? ''}\n${stack.logs()}`).toBe('SUCCESS');
    }
    const outputs = (await stack.call('GET', `/choreo-executions/${parents[0]}?view=outputs`, alice)).json().output;
    expect(outputs).toEqual({ Waited: '300' });

    // Some parent was suspended for its child: its events say so, naming the child.
    const waitsForChild = await Promise.all(
      parents.map(async (id) => {
        const events = (await stack?.call('GET', `/choreo-executions/${id}/events`, alice))?.text ?? '';
        return /"type":"wait\.started"[^}]*"waitFor":"child"[^}]*"child":"[0-9a-f]{32}"/.test(events);
      }),
    );
    expect(waitsForChild.some(Boolean)).toBe(true);
    for (const shard of stack.layout.shards) expect(await stack.redis.zcard(shard.keys.waiting())).toBe(0);
  });

  it('fails the step of a suspended parent at once when its child is terminated through the API', { timeout: 90_000 }, async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1, choreosDir: catalogue.dir, workerEnv: { DURABLE_WAIT_THRESHOLD_MS: '500' } });
    const current = stack;
    const alice = current.credentials.alice;
    const parent = await current.startRun('Test/WaitingParent', alice, { Milliseconds: '60000' });
    await waitFor(async () => (await current.redis.zscore(current.keys.waiting(), parent)) !== null, { timeoutMs: 20_000, what: 'the parent to be suspended' });
    const child = await waitFor(async () => (await current.redis.smembers(current.keys.executionChildren(parent)))[0], { what: 'the child' });
    expect((await current.call('DELETE', `/choreo-executions/${child}`, alice)).status).toBe(204);
    // Made due by the API that ended the child, not left to the reconciler (which waits 10 s past due).
    const ended = await current.waitForEnd(parent, alice, 8_000);
    expect(ended.status).toBe('ERROR');
    expect(ended.lasterror).toBe(`child: child execution ${child} ended TERMINATED_MANUALLY`);
  });

  it('parent-due: a worker killed after ending a child, before making its suspended parent due, leaves it to the reconciler', {
    timeout: 150_000,
  }, async () => {
    stack = await startStack({
      redisUrl: inject('redisUrl'),
      workers: 0,
      choreosDir: catalogue.dir,
      workerEnv: { DURABLE_WAIT_THRESHOLD_MS: '500' },
    });
    const current = stack;
    const alice = current.credentials.alice;
    // The child's own wait is suspended too, and resumed by the held worker, which ends it there.
    const held = current.addWorker({ WORKER_TEST_HOLD_AT: 'parent-due' });
    await current.waitForWorkers(1);
    const parent = await current.startRun('Test/WaitingParent', alice, { Milliseconds: '2000' });
    await waitFor(() => held.logs().includes('held at the crash seam parent-due'), {
      timeoutMs: 30_000,
      intervalMs: 50,
      what: 'the worker held at parent-due',
    });
    held.kill('SIGKILL');
    await held.exited;
    // The child has ended and its parent is due in Redis; the parent's job is still delayed.
    expect(await current.executions.waitIsDue(parent, Date.now() + 60_000)).toBe(true);

    const rescuer = current.addWorker();
    const ended = await current.waitForEnd(parent, alice, 90_000);
    expect(ended.status, current.logs()).toBe('SUCCESS');
    // Made due by the reconciler (logged once the job was made due, so perhaps after the end).
    await waitFor(() => rescuer.logs().includes('waiting execution was due with its job still delayed; made its job due'), {
      timeoutMs: 10_000,
      what: "the reconciler's line",
    });
  });
});
