import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

const SECRET = 'secret-output-3b9e1d77c2';
const CHOREO = '/Mine/SecretThenCallback';

/**
 * A secret output computed by the first step, then a wait for a call back that suspends the run:
 * the outputs so far are stored with the wait, then again at the end.
 */
const secretThenCallback = {
  description: 'Keeps a secret output while it waits for a call back.',
  inputs: { Secret: { description: 'The value to keep.', required: true, secret: true } },
  outputs: {
    Key: { description: 'The secret, returned.', value: '{{steps.first.text}}', secret: true },
    CallbackURL: { description: 'Where to call back.', value: '{{steps.callback.url}}' },
    Body: { description: 'What the call back sent.', value: '{{steps.callback.body.note}}' },
  },
  steps: [
    { id: 'first', kind: 'noop', args: { text: '{{inputs.Secret}}' } },
    { id: 'callback', kind: 'control.waitForCallback', args: { timeoutSeconds: 120 } },
  ],
};

// Secret outputs through a real worker's checkpoint, suspension, resumption and end.
describe('secret outputs kept sealed while a run waits, then returned in clear', { timeout: 60_000 }, () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1 });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('stores the secret output sealed with the wait, resumes with it, and ends with it sealed', async () => {
    const { alice } = stack.credentials;
    const put = await stack.call('PUT', `/choreos${CHOREO}`, alice, { body: JSON.stringify(secretThenCallback) });
    expect(put.status, put.text).toBe(201);
    const id = await stack.startRun(CHOREO, alice, { Secret: SECRET });

    // Suspended: the outputs so far, with the call back's URL, are stored; the secret one sealed.
    const waiting = await waitFor(
      async () => {
        const output = JSON.parse((await stack.redis.hget(stack.keys.execution(id), 'output')) ?? '{}') as Record<string, string>;
        return output.CallbackURL ? output : undefined;
      },
      { timeoutMs: 20_000, what: 'the run to wait for its call back' },
    );
    expect(waiting).toEqual({ CallbackURL: expect.stringContaining('/run-callbacks/'), $sealed: expect.stringMatching(/^v1\./) });
    expect(JSON.stringify(waiting)).not.toContain(SECRET);
    // The caller already sees it, in clear.
    const meanwhile = (await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json();
    expect(meanwhile.execution.status).toBe('RUNNING');
    expect(meanwhile.output).toEqual({ Key: SECRET, CallbackURL: waiting.CallbackURL });

    const delivered = await stack.http.request('POST', new URL(waiting.CallbackURL ?? '').pathname, {
      body: JSON.stringify({ note: 'called back' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(delivered.status, delivered.text).toBeLessThan(300);
    const ended = await stack.waitForEnd(id, alice);
    expect(ended.status, ended.lasterror).toBe('SUCCESS');
    const shown = (await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json();
    // Resumed on its take with the secret output opened, and sealed again at the end.
    expect(shown.output).toEqual({ Key: SECRET, CallbackURL: waiting.CallbackURL, Body: 'called back' });
    const record = await stack.redis.hgetall(stack.keys.execution(id));
    expect(JSON.parse(record.output ?? '{}')).toEqual({ CallbackURL: waiting.CallbackURL, Body: 'called back', $sealed: expect.stringMatching(/^v1\./) });
    const kept = JSON.stringify([
      record,
      await stack.redis.hgetall(stack.keys.executionProgress(id)),
      await stack.redis.lrange(stack.keys.executionSteps(id), 0, -1),
    ]);
    expect(kept).not.toContain(SECRET);
    // And never in a log line.
    expect(stack.logs()).not.toContain(SECRET);
  });
});
