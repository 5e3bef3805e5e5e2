import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

const childRun = (id: string, choreo: string, inputs: Record<string, string> = {}) => ({ id, kind: 'choreo.run', args: { choreo, inputs } });
const stepMilliseconds = { description: 'How long the innermost child waits.', type: 'STRING_VARIABLE', default: '60000' };

const CHOREOS: Record<string, unknown> = {
  'Test/ChildWaits': {
    description: 'One long wait.',
    inputs: { StepMilliseconds: stepMilliseconds },
    outputs: {},
    steps: [{ id: 'wait', kind: 'control.wait', args: { milliseconds: '{{inputs.StepMilliseconds}}' } }],
  },
  'Test/ParentOfWaits': {
    description: 'Runs Test/ChildWaits as a child.',
    inputs: { StepMilliseconds: stepMilliseconds },
    outputs: {},
    steps: [childRun('child', '/Test/ChildWaits', { StepMilliseconds: '{{inputs.StepMilliseconds}}' })],
  },
  'Test/BranchFailsBesideChild': {
    description: 'Runs Test/ChildWaits in one branch of a parallel while the other fails; a catch takes the failure.',
    inputs: {},
    outputs: { Caught: { description: 'The failure the catch took.', type: 'STRING_VARIABLE', value: '{{steps.recover.text}}' } },
    steps: [
      {
        id: 'guard',
        try: [
          {
            id: 'both',
            parallel: [
              [childRun('child', '/Test/ChildWaits')],
              [
                { id: 'pause', kind: 'control.wait', args: { milliseconds: '2000' } },
                { id: 'bad', kind: 'control.fail', args: { message: 'the other branch failed' } },
              ],
            ],
          },
        ],
        catch: [{ steps: [{ id: 'recover', kind: 'text.template', args: { text: '{{error.message}}' } }] }],
      },
    ],
  },
  'Test/GrandparentOfWaits': {
    description: 'Runs Test/ParentOfWaits as a child.',
    inputs: { StepMilliseconds: stepMilliseconds },
    outputs: {},
    steps: [childRun('child', '/Test/ParentOfWaits', { StepMilliseconds: '{{inputs.StepMilliseconds}}' })],
  },
};

function writeCatalogue(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'ces-sub-choreo-termination-'));
  for (const [id, definition] of Object.entries(CHOREOS)) {
    mkdirSync(dirname(join(dir, `${id}.json`)), { recursive: true });
    writeFileSync(join(dir, `${id}.json`), JSON.stringify(definition));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

// A parent's termination reaches its children whether or not a worker holds the parent: here no
// worker runs at all when it is terminated, so only the store can end them.
describe('sub-Choreo termination without a worker', () => {
  const catalogue = writeCatalogue();
  let stack: Stack;

  beforeAll(async () => {
    // Waits of a second or more are durable: the innermost child's wait suspends it, on no worker.
    stack = await startStack({
      redisUrl: inject('redisUrl'),
      workers: 1,
      choreosDir: catalogue.dir,
      workerEnv: { DURABLE_WAIT_THRESHOLD_MS: '1000', WORKER_SHUTDOWN_GRACE_SECONDS: '4' },
    });
  });

  afterAll(async () => {
    await stack?.stop();
    catalogue.remove();
  });

  const recordOf = (id: string) => stack.redis.hgetall(`${stack.prefix}:exec:${id}`);
  const childOf = (parent: string) =>
    waitFor(async () => (await stack.redis.smembers(`${stack.prefix}:exec:${parent}:children`))[0], { timeoutMs: 20_000, what: `a child of ${parent}` });
  const suspended = (id: string) =>
    waitFor(async () => (await stack.redis.zscore(`${stack.prefix}:waiting`, id)) !== null, { timeoutMs: 20_000, what: `${id} to be suspended` });

  it('ends the children and grandchildren of queued parents, handed back by their stopped worker, when the parents are terminated', {
    timeout: 90_000,
  }, async () => {
    const alice = stack.credentials.alice;
    const parent = await stack.startRun('Test/ParentOfWaits', alice);
    const grandparent = await stack.startRun('Test/GrandparentOfWaits', alice);
    const child = await childOf(parent);
    const middle = await childOf(grandparent);
    const grandchild = await childOf(middle);
    await suspended(child);
    await suspended(grandchild);

    // The only worker stops: the runs waiting for their children are interrupted within its grace
    // period and handed back to the queue.
    await stack.workers[0]?.stop();
    for (const id of [parent, grandparent, middle]) {
      await waitFor(async () => (await recordOf(id)).host === '', { timeoutMs: 20_000, what: `${id} to be handed back` });
      expect((await recordOf(id)).status).toBe('RUNNING');
    }

    for (const id of [parent, grandparent]) expect((await stack.call('DELETE', `/choreo-executions/${id}`, alice)).status).toBe(204);
    for (const id of [parent, grandparent, child, middle, grandchild]) {
      expect((await stack.waitForEnd(id, alice, 10_000)).status).toBe('TERMINATED_MANUALLY');
    }
    for (const id of [child, middle, grandchild]) {
      expect(await stack.redis.zscore(`${stack.prefix}:waiting`, id)).toBeNull();
      expect(await stack.redis.zscore(`${stack.prefix}:running`, id)).toBeNull();
    }
    const listed = (await stack.call('GET', '/choreo-executions', alice)).json().executions as { id: string }[];
    expect(listed.filter((row) => [child, middle, grandchild].includes(row.id))).toEqual([]);
  });

  it('ends the child of a parent whose worker died, which no worker hears, when the parent is terminated', { timeout: 120_000 }, async () => {
    const alice = stack.credentials.alice;
    const worker = stack.addWorker();
    await stack.waitForWorkers(1);
    const parent = await stack.startRun('Test/ParentOfWaits', alice);
    const child = await childOf(parent);
    await suspended(child);
    expect((await recordOf(parent)).host).not.toBe('');

    worker.kill('SIGKILL');
    await worker.exited;
    // The dead worker's job lock holds the parent's job: the DELETE can only flag it.
    expect((await stack.call('DELETE', `/choreo-executions/${parent}`, alice)).status).toBe(204);
    expect((await stack.waitForEnd(child, alice, 10_000)).status).toBe('TERMINATED_MANUALLY');
    expect(await recordOf(parent)).toMatchObject({ status: 'RUNNING', cancel: '1' });

    // A worker that takes the parent over once its job's lock lapses ends it.
    stack.addWorker();
    expect((await stack.waitForEnd(parent, alice, 90_000)).status).toBe('TERMINATED_MANUALLY');
  });
});

// A block that ends while one of its steps waits for a child (another branch failed) ends the
// child with it: the run goes on past the block, and nothing is left running on its account.
describe('sub-Choreo in a parallel branch whose other branch fails', () => {
  const catalogue = writeCatalogue();
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1, choreosDir: catalogue.dir });
  });

  afterAll(async () => {
    await stack?.stop();
    catalogue.remove();
  });

  it('terminates the child and lets the catch take the failure', { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const parent = await stack.startRun('Test/BranchFailsBesideChild', alice);
    const ended = await stack.waitForEnd(parent, alice, 30_000);
    expect(ended.status).toBe('SUCCESS');
    const outputs = (await stack.call('GET', `/choreo-executions/${parent}?view=outputs`, alice)).json().output;
    expect(outputs).toEqual({ Caught: 'the other branch failed' });

    // The child's id is derived from its parent's and the step's address (a branch adds none).
    const child = createHash('sha256').update(`${parent}\nchild`).digest('hex').slice(0, 32);
    expect((await stack.waitForEnd(child, alice, 10_000)).status).toBe('TERMINATED_MANUALLY');
    expect(await stack.redis.smembers(`${stack.prefix}:exec:${parent}:children`)).toEqual([]);
  });
});
