import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Credential, type Stack } from '../support/stack.ts';

const TOKEN = 'stored-token-5e1f0a93b7';
const LOOP_TOKEN = 'loop-token-c84d2e6f01';

/**
 * Stores a token, reads it back (a step whose result is secret), then waits for a call back, which
 * suspends the run with its checkpoint stored; resumed, a later step copies the token.
 */
const readThenWait = {
  description: 'Reads a stored token, waits for a call back, then uses the token.',
  inputs: { Token: { description: 'The token to store.', required: true, secret: true } },
  outputs: {
    CallbackURL: { description: 'Where to call back.', value: '{{steps.hold.url}}' },
    Token: { description: 'The token read before the wait.', value: '{{steps.get.token}}', secret: true },
    Used: { description: 'The token as the step after the wait used it.', value: '{{steps.use.text}}', secret: true },
  },
  steps: [
    { id: 'store', kind: 'tokens.store', args: { name: 'sealed-result', value: '{{inputs.Token}}' } },
    { id: 'get', kind: 'tokens.retrieve', args: { name: 'sealed-result' } },
    { id: 'hold', kind: 'control.waitForCallback', args: { timeoutSeconds: 120 } },
    { id: 'use', kind: 'text.template', args: { text: 'Bearer {{steps.get.token}}' } },
  ],
};

/**
 * The same inside a loop: the read is the only step of an inner loop, whose iteration's entry (the
 * read's result) is recorded in the progress inside the block before the wait there suspends it.
 */
const readInLoopThenWait = {
  description: 'Reads a stored token in a loop, waits for a call back in it, then uses the token.',
  inputs: { Token: { description: 'The token to store.', required: true, secret: true } },
  outputs: {
    CallbackURL: { description: 'Where to call back.', value: '{{steps.outer.0.url}}' },
    Used: { description: 'The token as the step after the wait used it.', value: '{{steps.outer.0.text}}', secret: true },
  },
  steps: [
    { id: 'store', kind: 'tokens.store', args: { name: 'sealed-loop-result', value: '{{inputs.Token}}' } },
    {
      id: 'outer',
      forEach: '["only"]',
      steps: [
        { id: 'inner', forEach: '["sealed-loop-result"]', steps: [{ id: 'read', kind: 'tokens.retrieve', args: { name: '{{loop.item}}' } }] },
        { id: 'hold', kind: 'control.waitForCallback', args: { timeoutSeconds: 120 } },
        { id: 'use', kind: 'text.template', args: { text: 'Bearer {{steps.inner.0.token}}' } },
      ],
    },
  ],
};

// Step results that hold a token, through a real worker's checkpoint, progress, suspension and
// resumption, with every key of the stack's Redis read while the run waits.
describe('secret step results kept sealed while a run waits', { timeout: 60_000 }, () => {
  let stack: Stack;
  let alice: Credential;

  beforeAll(async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1 });
    alice = stack.credentials.alice;
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** Every key of the stack and what it holds, as text. */
  async function dumpRedis(): Promise<string> {
    const dump: string[] = [];
    for (const key of await stack.redis.keys(`${stack.prefix}*`)) {
      const type = await stack.redis.type(key);
      if (type === 'hash') dump.push(key, JSON.stringify(await stack.redis.hgetall(key)));
      else if (type === 'string') dump.push(key, (await stack.redis.get(key)) ?? '');
      else if (type === 'list') dump.push(key, JSON.stringify(await stack.redis.lrange(key, 0, -1)));
      else if (type === 'set') dump.push(key, JSON.stringify(await stack.redis.smembers(key)));
      else if (type === 'zset') dump.push(key, JSON.stringify(await stack.redis.zrange(key, '0', '-1', 'WITHSCORES')));
      else if (type === 'stream') dump.push(key, JSON.stringify(await stack.redis.xrange(key, '-', '+')));
      else dump.push(key, `(${type})`);
    }
    return dump.join('\n');
  }

  /** Starts `choreo` and waits until it is suspended for its call back; answers its id and the call back's URL. */
  async function startUntilWaiting(choreo: string, definition: unknown, token: string): Promise<{ id: string; callbackUrl: string }> {
    const put = await stack.call('PUT', `/choreos${choreo}`, alice, { body: JSON.stringify(definition) });
    expect(put.status, put.text).toBe(201);
    const id = await stack.startRun(choreo, alice, { Token: token });
    const callbackUrl = await waitFor(
      async () => {
        if ((await stack.redis.zscore(`${stack.prefix}:waiting`, id)) === null) return undefined;
        const output = JSON.parse((await stack.redis.hget(stack.keys.execution(id), 'output')) ?? '{}') as Record<string, string>;
        return output.CallbackURL;
      },
      { timeoutMs: 20_000, what: 'the run to be suspended for its call back' },
    );
    return { id, callbackUrl };
  }

  async function callBack(callbackUrl: string): Promise<void> {
    const delivered = await stack.http.request('POST', new URL(callbackUrl).pathname, {
      body: JSON.stringify({ note: 'go on' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(delivered.status, delivered.text).toBeLessThan(300);
  }

  it('keeps the read token sealed in the checkpoint while the run waits, and uses it once resumed', async () => {
    const { id, callbackUrl } = await startUntilWaiting('/Mine/ReadThenWait', readThenWait, TOKEN);

    // Suspended after `get`: the progress log holds the results so far, each its own entry, the
    // token's sealed alone; the record holds none of them.
    const record = await stack.redis.hgetall(stack.keys.execution(id));
    expect(record.status).toBe('RUNNING');
    expect(record.results).toBeUndefined();
    const progress = await stack.redis.hgetall(stack.keys.executionProgress(id));
    expect(JSON.parse(progress.store ?? 'null')).toEqual({ updated: 'true' });
    expect(JSON.parse(progress.get ?? 'null')).toEqual({ $sealed: expect.stringMatching(/^v1\./) });
    // The wait's entries are in the same log, like a wait's inside a block.
    expect(record.wait).toBeUndefined();
    expect(record.cursor).toBe('hold@token');
    expect(Object.keys(progress)).toContain('hold@token');
    expect(await dumpRedis()).not.toContain(TOKEN);

    await callBack(callbackUrl);
    const ended = await stack.waitForEnd(id, alice);
    expect(ended.status, ended.lasterror).toBe('SUCCESS');
    const shown = (await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json();
    expect(shown.output).toEqual({ CallbackURL: callbackUrl, Token: TOKEN, Used: `Bearer ${TOKEN}` });
    // Resumed from the opened checkpoint: the token was read once, before the wait.
    const history = (await stack.call('GET', `/choreo-executions/${id}?view=steps`, alice)).json();
    expect((history.steps as { id: string }[]).filter((step) => step.id === 'get')).toHaveLength(1);
    expect((history.steps as { id: string }[]).at(-1)?.id).toBe('use');
    // Ended, the run keeps no results at all.
    expect(await stack.redis.hget(stack.keys.execution(id), 'results')).toBeNull();
    expect(await dumpRedis()).not.toContain(TOKEN);
    expect(stack.logs()).not.toContain(TOKEN);
  });

  it('keeps a loop iteration holding the token sealed in the progress inside the block, and resumes with it', async () => {
    const { id, callbackUrl } = await startUntilWaiting('/Mine/ReadInLoopThenWait', readInLoopThenWait, LOOP_TOKEN);

    // Suspended inside the loop: the inner loop's iteration (the read's result) is an entry of the
    // progress, sealed alone, beside the wait's own entries, in clear.
    const progress = await stack.redis.hgetall(stack.keys.executionProgress(id));
    expect(JSON.parse(progress['outer[0].inner[0]'] ?? 'null')).toEqual({ $sealed: expect.stringMatching(/^v1\./) });
    expect(Object.keys(progress)).toEqual(expect.arrayContaining(['outer[0].hold@', 'outer[0].hold@token']));
    expect(await dumpRedis()).not.toContain(LOOP_TOKEN);

    await callBack(callbackUrl);
    const ended = await stack.waitForEnd(id, alice);
    expect(ended.status, ended.lasterror).toBe('SUCCESS');
    const shown = (await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json();
    expect(shown.output.Used).toBe(`Bearer ${LOOP_TOKEN}`);
    const history = (await stack.call('GET', `/choreo-executions/${id}?view=steps`, alice)).json();
    expect((history.steps as { id: string }[]).filter((step) => step.id === 'read')).toHaveLength(1);
    expect(await stack.redis.exists(stack.keys.executionProgress(id))).toBe(0);
    expect(await dumpRedis()).not.toContain(LOOP_TOKEN);
    expect(stack.logs()).not.toContain(LOOP_TOKEN);
  });
});

describe('a worker without SECRETS_KEY and a Choreo with a step whose result is secret', { timeout: 60_000 }, () => {
  let stack: Stack;

  beforeAll(async () => {
    // The API has the key (it accepts the run); the only worker has none.
    stack = await startStack({ redisUrl: inject('redisUrl'), workerEnv: { SECRETS_KEY: '' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('fails the run when it takes it, saying why, rather than keep the result in clear', async () => {
    const { alice } = stack.credentials;
    const readOnly = {
      description: 'Reads a token; declares no secret output.',
      outputs: { Valid: { description: 'Whether it is valid.', value: '{{steps.get.valid}}' } },
      steps: [{ id: 'get', kind: 'tokens.retrieve', args: { name: 'any' } }],
    };
    const put = await stack.call('PUT', '/choreos/Mine/ReadOnly', alice, { body: JSON.stringify(readOnly) });
    expect(put.status, put.text).toBe(201);
    const id = await stack.startRun('/Mine/ReadOnly', alice, {});
    const ended = await stack.waitForEnd(id, alice);
    expect(ended.status).toBe('ERROR');
    expect(ended.lasterror).toBe('this Choreo has steps whose results are secret, and this worker has no SECRETS_KEY to seal them with');
  });
});
