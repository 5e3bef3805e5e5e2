import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CATALOGUE_DIR, startStack, type Stack } from '../support/stack.ts';

const childRun = (id: string, choreo: string, inputs: Record<string, string> = {}) => ({ id, kind: 'choreo.run', args: { choreo, inputs } });
const stepMilliseconds = { description: 'How long the child waits.', type: 'STRING_VARIABLE', default: '30000' };
const childId = { description: "The child's execution id.", type: 'STRING_VARIABLE', value: '{{steps.child.executionId}}' };

/** Choreos that run children, beside the two Library Choreos of the example. */
const SUB_CHOREO_TEST_CHOREOS: Record<string, unknown> = {
  'Test/ChildWaits': {
    description: 'One long wait.',
    inputs: { StepMilliseconds: stepMilliseconds },
    outputs: { Waited: { description: 'The wait.', type: 'STRING_VARIABLE', value: '{{steps.wait.waitedMs}}' } },
    steps: [{ id: 'wait', kind: 'control.wait', args: { milliseconds: '{{inputs.StepMilliseconds}}' } }],
  },
  'Test/ParentOfWaits': {
    description: 'Runs Test/ChildWaits as a child.',
    inputs: { StepMilliseconds: stepMilliseconds },
    outputs: { ChildId: childId, Waited: { description: "The child's output.", type: 'STRING_VARIABLE', value: '{{steps.child.outputs.Waited}}' } },
    steps: [{ id: 'first', kind: 'noop', args: {} }, childRun('child', '/Test/ChildWaits', { StepMilliseconds: '{{inputs.StepMilliseconds}}' })],
  },
  'Test/ParentLimited': {
    description: 'Runs Test/ChildWaits as a child, under a two-second limit.',
    timeLimitSeconds: 2,
    inputs: {},
    outputs: {},
    steps: [childRun('child', '/Test/ChildWaits')],
  },
  'Test/FailingChild': {
    description: 'Fails.',
    inputs: {},
    outputs: {},
    steps: [{ id: 'refuse', kind: 'control.fail', args: { message: 'the child says no' } }],
  },
  'Test/CatchesChild': {
    description: "Catches its child's failure by its type.",
    inputs: {},
    outputs: { Caught: { description: 'What the catch saw.', type: 'STRING_VARIABLE', value: '{{steps.fallback.text}}' } },
    steps: [
      {
        id: 'guarded',
        try: [childRun('child', '/Test/FailingChild')],
        catch: [{ errors: ['child-failed'], steps: [{ id: 'fallback', kind: 'text.template', args: { text: '{{error.type}}: {{error.message}}' } }] }],
      },
    ],
  },
  'Test/Uncaught': {
    description: 'Fails with its child.',
    inputs: {},
    outputs: {},
    steps: [childRun('child', '/Test/FailingChild')],
  },
  'Test/SelfLoop': {
    description: 'Runs itself.',
    inputs: {},
    outputs: {},
    steps: [childRun('again', '/Test/SelfLoop')],
  },
};

function writeCatalogue(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'ces-sub-choreos-'));
  for (const id of ['Library/Utilities/Encoding/Base64Encode', 'Library/Examples/EncodeViaChild']) {
    mkdirSync(dirname(join(dir, `${id}.json`)), { recursive: true });
    copyFileSync(join(CATALOGUE_DIR, `${id}.json`), join(dir, `${id}.json`));
  }
  for (const [id, definition] of Object.entries(SUB_CHOREO_TEST_CHOREOS)) {
    mkdirSync(dirname(join(dir, `${id}.json`)), { recursive: true });
    writeFileSync(join(dir, `${id}.json`), JSON.stringify(definition));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('sub-Choreos', () => {
  const catalogue = writeCatalogue();
  let stack: Stack;

  beforeAll(async () => {
    // Waits of a second or more are durable (DURABLE_WAIT_THRESHOLD_MS): a child's long wait suspends it.
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 2, choreosDir: catalogue.dir, workerEnv: { DURABLE_WAIT_THRESHOLD_MS: '1000' } });
  });

  afterAll(async () => {
    await stack?.stop();
    catalogue.remove();
  });

  const execution = async (id: string) => (await stack.call('GET', `/choreo-executions/${id}`, stack.credentials.alice)).json().execution;
  const outputsOf = async (id: string) => (await stack.call('GET', `/choreo-executions/${id}?view=outputs`, stack.credentials.alice)).json().output;
  /** The child executions recorded for a parent, read from the store (ended ones too). */
  const childrenOf = async (parentId: string) => {
    const ids: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await stack.redis.scan(cursor, 'MATCH', `${stack.prefix}:exec:*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const id = key.slice(`${stack.prefix}:exec:`.length);
        // Only the records: an execution's other keys (`:progress`, `:steps`) follow its id.
        if (id.includes(':')) continue;
        if ((await stack.redis.hget(key, 'parent')) === parentId) ids.push(id);
      }
    } while (cursor !== '0');
    return ids;
  };
  /**
   * The running child of a parent, as the list of running executions shows it: on a worker, or
   * suspended in a durable wait (on no host).
   */
  const runningChild = (choreo: string, parentId: string) =>
    waitFor(
      async () => {
        const listed = (await stack.call('GET', '/choreo-executions', stack.credentials.alice)).json().executions as {
          id: string;
          choreo: string;
          status: string;
        }[];
        const children = await childrenOf(parentId);
        return listed.find((row) => row.choreo === choreo && row.status === 'RUNNING' && children.includes(row.id));
      },
      { timeoutMs: 20_000, intervalMs: 100, what: `a running ${choreo} child of ${parentId}` },
    );

  it('runs EncodeViaChild: the output comes from a child execution readable through the API', async () => {
    const alice = stack.credentials.alice;
    const id = await stack.startRun('Library/Examples/EncodeViaChild', alice, { Text: 'Grüße, world' });
    expect((await stack.waitForEnd(id, alice)).status).toBe('SUCCESS');
    const output = await outputsOf(id);
    expect(output.Base64EncodedText).toBe(Buffer.from('Grüße, world').toString('base64'));
    expect(output.ChildExecutionId).toMatch(/^[0-9a-f]{32}$/);
    expect(output.ChildExecutionId).not.toBe(id);

    const child = await stack.call('GET', `/choreo-executions/${output.ChildExecutionId}?view=outputs`, alice);
    expect(child.status).toBe(200);
    expect(child.json()).toMatchObject({
      execution: { status: 'SUCCESS', choreo: '/Library/Utilities/Encoding/Base64Encode' },
      output: { Base64EncodedText: output.Base64EncodedText },
    });
    expect(await childrenOf(id)).toEqual([output.ChildExecutionId]);
    // Another account does not see it.
    expect((await stack.call('GET', `/choreo-executions/${output.ChildExecutionId}`, stack.credentials.bob)).status).toBe(404);
  });

  it("suspends a child's long wait and its parent's wait for it, which hold no slot, and the parent still ends with the child's output", {
    timeout: 60_000,
  }, async () => {
    const alice = stack.credentials.alice;
    const parent = await stack.startRun('Test/ParentOfWaits', alice, { StepMilliseconds: '4000' });
    const child = await runningChild('/Test/ChildWaits', parent);
    await waitFor(async () => (await stack.redis.zscore(`${stack.prefix}:waiting`, child.id)) !== null, {
      timeoutMs: 20_000,
      what: 'the child to be suspended',
    });
    expect((await execution(child.id)).host).toBe('');
    // The parent, waiting for it past the threshold, is suspended too: neither holds a slot.
    await waitFor(async () => (await stack.redis.zscore(`${stack.prefix}:waiting`, parent)) !== null, {
      timeoutMs: 20_000,
      what: 'the parent to be suspended',
    });
    expect((await execution(parent)).host).toBe('');

    expect((await stack.waitForEnd(parent, alice, 40_000)).status).toBe('SUCCESS');
    expect(await outputsOf(parent)).toEqual({ ChildId: child.id, Waited: '4000' });
    expect((await execution(child.id)).status).toBe('SUCCESS');
    expect(await stack.redis.zscore(`${stack.prefix}:waiting`, child.id)).toBeNull();
  });

  it('terminates the child with its parent, suspended while it waits', { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const parent = await stack.startRun('Test/ParentOfWaits', alice, { StepMilliseconds: '30000' });
    const child = await runningChild('/Test/ChildWaits', parent);
    // Suspended while it waits for the child: no worker holds it, and the termination reaches the child all the same.
    await waitFor(async () => (await stack.redis.zscore(`${stack.prefix}:waiting`, parent)) !== null, {
      timeoutMs: 20_000,
      what: 'the parent to be suspended',
    });
    expect((await stack.call('DELETE', `/choreo-executions/${parent}`, alice)).status).toBe(204);
    expect((await stack.waitForEnd(parent, alice)).status).toBe('TERMINATED_MANUALLY');
    expect((await stack.waitForEnd(child.id, alice)).status).toBe('TERMINATED_MANUALLY');
  });

  it("ends the child at its parent's time limit", { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const parent = await stack.startRun('Test/ParentLimited', alice);
    const child = await runningChild('/Test/ChildWaits', parent);
    expect((await stack.waitForEnd(parent, alice)).status).toBe('TERMINATED_LIMIT');
    expect((await stack.waitForEnd(child.id, alice)).status).toBe('TERMINATED_LIMIT');
  });

  it("fails the step with a child's failure, which a catch selects by the type child-failed", async () => {
    const alice = stack.credentials.alice;
    const caught = await stack.startRun('Test/CatchesChild', alice);
    expect((await stack.waitForEnd(caught, alice)).status).toBe('SUCCESS');
    const [child] = await childrenOf(caught);
    expect((await execution(child ?? '')).status).toBe('ERROR');
    expect((await outputsOf(caught)).Caught).toBe(`child-failed: child execution ${child} ended ERROR: refuse: the child says no`);

    const uncaught = await stack.startRun('Test/Uncaught', alice);
    const ended = await stack.waitForEnd(uncaught, alice);
    expect(ended.status).toBe('ERROR');
    expect(ended.lasterror).toMatch(/^child: child execution [0-9a-f]{32} ended ERROR: refuse: the child says no$/);
  });

  it('refuses a Choreo that runs itself when the catalogue loads', async () => {
    const alice = stack.credentials.alice;
    const res = await stack.call('POST', '/choreos/Test/SelfLoop', alice, { body: JSON.stringify({ inputs: [] }) });
    expect(res.status).toBe(409);
    expect(res.text).toContain('choreo.run forms a cycle: /Test/SelfLoop → /Test/SelfLoop');
  });

  it('finds its child again after its worker is SIGKILLed, instead of starting a second one', { timeout: 90_000 }, async () => {
    const alice = stack.credentials.alice;
    const parent = await stack.startRun('Test/ParentOfWaits', alice, { StepMilliseconds: '6000' });
    const child = await runningChild('/Test/ChildWaits', parent);
    const held = await waitFor(async () => (await stack.executions.get(parent))?.host || undefined, { what: 'the parent to be taken' });
    const victim = stack.workers.find((_, index) => held === `10.0.0.${index + 1}`);
    if (victim === undefined) throw new Error(`no worker has host ${held}`);
    victim.kill('SIGKILL');
    await victim.exited;
    // The survivor takes the parent again once the stall check finds its job without a lock.

    const ended = await stack.waitForEnd(parent, alice, 60_000);
    expect(ended.status).toBe('SUCCESS');
    // Resumed by the survivor, at the child step, which found the child it had accepted.
    expect(ended.host).not.toBe(held);
    expect((await outputsOf(parent)).ChildId).toBe(child.id);
    expect(await childrenOf(parent)).toEqual([child.id]);
    expect((await execution(child.id)).status).toBe('SUCCESS');
  });
});
