import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Credential, type Stack } from '../support/stack.ts';

const REGISTER = '/choreos/Library/Utilities/Callback/RegisterCallback';
const WAITER = '/Mine/WaitForCallback';
const waiter = {
  description: 'Waits for a call back.',
  outputs: { CallbackURL: { description: 'Where to call back.', value: '{{steps.callback.url}}' } },
  steps: [{ id: 'callback', kind: 'control.waitForCallback', args: { timeoutSeconds: 600 } }],
};

/** RegisterCallback run synchronously through the API, with the Host header a client would send. */
async function registeredUrl(stack: Stack, credential: Credential, host?: string): Promise<{ url: string; id: string }> {
  const res = await stack.call('POST', REGISTER, credential, { body: '{"inputs":[]}', ...(host ? { headers: { host } } : {}) });
  expect(res.status, res.text).toBe(200);
  const answer = res.json() as { output: { CallbackURL: string }; execution: { id: string } };
  return { url: answer.output.CallbackURL, id: answer.execution.id };
}

// Each run's public address, decided by the API that accepts it, with real API and worker processes.
describe('public base URL from the request when none is set', { timeout: 60_000 }, () => {
  let stack: Stack;

  beforeAll(async () => {
    // No PUBLIC_BASE_URL on the API (the stack sets none) nor on the worker.
    stack = await startStack({ redisUrl: inject('redisUrl'), workerEnv: { PUBLIC_BASE_URL: '' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('makes callback URLs under the Host the client used', async () => {
    const { alice } = stack.credentials;
    const accountHost = `acme.choreos.test:${stack.port}`;
    const viaAccountHost = await registeredUrl(stack, alice, accountHost);
    expect(viaAccountHost.url).toMatch(new RegExp(`^https://acme\\.choreos\\.test:${stack.port}/callbacks/[A-Za-z0-9_-]{43}$`));
    // The address is the run's while it runs; the end drops it with what else only a running run reads.
    expect(await stack.redis.hget(stack.keys.execution(viaAccountHost.id), 'base')).toBeNull();
    const viaAddress = await registeredUrl(stack, alice);
    expect(viaAddress.url).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:${stack.port}/callbacks/`));
  });

  it('gives a run asked with a Host that is not a valid host[:port] no address, and its callback step says so', async () => {
    const { alice } = stack.credentials;
    const res = await stack.call('POST', REGISTER, alice, { body: '{"inputs":[]}', headers: { host: 'not_a_host' } });
    expect(res.status, res.text).toBe(200);
    const answer = res.json() as { execution: { id: string; status: string; lasterror?: string } };
    expect(answer.execution.status).toBe('ERROR');
    expect(answer.execution.lasterror).toContain('this run has no public address for callback URLs: set PUBLIC_BASE_URL');
    expect(await stack.redis.hget(stack.keys.execution(answer.execution.id), 'base')).toBeNull();
  });

  it('gives a child execution its parent’s address', async () => {
    const { alice } = stack.credentials;
    const parent = {
      description: 'Registers a callback in a child run.',
      outputs: {
        CallbackURL: { description: "The child's callback URL.", value: '{{steps.child.outputs.CallbackURL}}' },
        ChildId: { description: "The child's execution id.", value: '{{steps.child.executionId}}' },
      },
      steps: [{ id: 'child', kind: 'choreo.run', args: { choreo: '/Library/Utilities/Callback/RegisterCallback', inputs: {} } }],
    };
    const put = await stack.call('PUT', '/choreos/Mine/RegisterInChild', alice, { body: JSON.stringify(parent) });
    expect(put.status, put.text).toBe(201);
    const host = `acme.choreos.test:${stack.port}`;
    const res = await stack.call('POST', '/choreos/Mine/RegisterInChild', alice, { body: '{"inputs":[]}', headers: { host } });
    expect(res.status, res.text).toBe(200);
    const { output } = res.json() as { output: { CallbackURL: string; ChildId: string } };
    expect(output.CallbackURL).toMatch(new RegExp(`^https://acme\\.choreos\\.test:${stack.port}/callbacks/`));
  });

  it('makes a waiting run’s call-back URL under that Host too', async () => {
    const { alice } = stack.credentials;
    const put = await stack.call('PUT', `/choreos${WAITER}`, alice, { body: JSON.stringify(waiter) });
    expect(put.status, put.text).toBe(201);
    const res = await stack.call('POST', `/choreos${WAITER}?mode=async`, alice, {
      body: '{"inputs":[]}',
      headers: { host: `acme.choreos.test:${stack.port}` },
    });
    expect(res.status, res.text).toBe(202);
    const id = res.json().id as string;
    const waiting = await waitFor(
      async () => (await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json().output?.CallbackURL as string | undefined,
      { timeoutMs: 20_000, what: 'the run to wait for its call back' },
    );
    expect(waiting).toMatch(new RegExp(`^https://acme\\.choreos\\.test:${stack.port}/run-callbacks/[A-Za-z0-9_-]{43}$`));
    expect((await stack.call('DELETE', `/choreo-executions/${id}`, alice)).status).toBeLessThan(300);
  });
});

describe('public base URL set on the API', { timeout: 60_000 }, () => {
  let stack: Stack;

  beforeAll(async () => {
    // The API's setting; the worker is given another, which runs recorded with one do not use.
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1, env: { PUBLIC_BASE_URL: 'https://choreos.example.com/' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('makes callback URLs under the setting, whatever Host the client used', async () => {
    const { alice } = stack.credentials;
    const { url } = await registeredUrl(stack, alice, `acme.choreos.test:${stack.port}`);
    expect(url).toMatch(/^https:\/\/choreos\.example\.com\/callbacks\/[A-Za-z0-9_-]{43}$/);
  });
});
