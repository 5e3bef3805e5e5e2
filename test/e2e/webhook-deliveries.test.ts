import { waitFor } from '@ces/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Credential, type Stack, startStack } from '../support/stack.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

const SECRET_OUTPUT = 'secret-output-8c1f0e52aa';
const CHOREO = '/Mine/WithSecret';

/** One step, a secret output and a plain one. */
const withSecret = {
  description: 'Returns a secret output beside a plain one.',
  inputs: { Text: { description: 'Any text.', required: true } },
  outputs: {
    Key: { description: 'A secret.', value: SECRET_OUTPUT, secret: true },
    Plain: { description: 'The text.', value: '{{steps.first.text}}' },
  },
  steps: [{ id: 'first', kind: 'noop', args: { text: '{{inputs.Text}}' } }],
};

/** Deliveries to one path that the receiver answered 2xx. */
const accepted = (receiver: WebhookReceiver, path: string) => receiver.at(path).filter((delivery) => delivery.status < 300);

// Real worker and API processes deliver runs' events to a local HTTPS endpoint trusted through
// NODE_EXTRA_CA_CERTS: signed as Standard Webhooks, retried, once through crashes and restarts.
describe('webhook deliveries by worker processes', { timeout: 120_000 }, () => {
  const receiver = new WebhookReceiver();
  let stack: Stack;

  const subscribe = async (name: string, credential: Credential, spec: Record<string, unknown> = {}) => {
    const res = await stack.call('PUT', `/webhooks/${name}`, credential, {
      body: JSON.stringify({ url: receiver.url(`/${name}`), events: ['execution.ended'], ...spec }),
    });
    expect(res.status, res.text).toBe(201);
    return res.json().secret as string;
  };
  const run = (credential: Credential, query = '') =>
    stack.call('POST', `/choreos${CHOREO}?mode=async${query}`, credential, { body: JSON.stringify({ inputs: [{ name: 'Text', value: 'hello' }] }) });
  const delivery = async (name: string, credential: Credential) => {
    const res = await stack.call('GET', `/webhooks/${name}/deliveries`, credential);
    expect(res.status).toBe(200);
    return res.json().deliveries[0] as Record<string, string> | undefined;
  };

  beforeAll(async () => {
    await receiver.start();
    stack = await startStack({
      redisUrl: inject('redisUrl'),
      workers: 2,
      workerEnv: { NODE_EXTRA_CA_CERTS: receiver.certFile, WEBHOOK_RETRY_INITIAL_MS: '1500', WEBHOOK_DISPATCH_POLL_MS: '20' },
    });
    const { alice, bob } = stack.credentials;
    for (const credential of [alice, bob]) {
      const put = await stack.call('PUT', `/choreos${CHOREO}`, credential, { body: JSON.stringify(withSecret) });
      expect(put.status, put.text).toBe(201);
    }
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver.close();
  });

  it("delivers a run's end signed with the subscription's secret, without its secret outputs, and none of another account's runs", async () => {
    const { alice, bob } = stack.credentials;
    const secret = await subscribe('signed', alice);
    const id = (await run(alice)).json().id as string;
    await (await run(bob)).json();
    await waitFor(() => receiver.at('/signed').length === 1, { timeoutMs: 20_000, what: 'the delivery' });
    const [only] = receiver.at('/signed');
    const headers = only?.headers as Record<string, string>;
    expect(headers['content-type']).toBe('application/json');
    const payload = new Webhook(secret).verify(only?.body ?? '', headers) as { type: string; data: { execution: Record<string, string>; output: unknown } };
    expect(payload.type).toBe('execution.ended');
    expect(payload.data.execution).toMatchObject({ id, status: 'SUCCESS', choreo: CHOREO });
    expect(payload.data.output).toEqual({ Plain: 'hello' });
    expect(only?.body).not.toContain(SECRET_OUTPUT);
    // The receiver answered before the worker recorded it.
    await waitFor(async () => (await delivery('signed', alice))?.state === 'delivered', { timeoutMs: 10_000, what: 'the delivery recorded' });
    expect(await delivery('signed', alice)).toMatchObject({ id: headers['webhook-id'], execution: id, state: 'delivered', attempts: '1' });
    // Bob's run was his alone: acme's endpoint got nothing of it.
    expect(receiver.at('/signed')).toHaveLength(1);
    expect(stack.logs()).not.toContain(secret);
  });

  it('retries a receiver that fails three times, then a worker SIGKILLed between attempts loses nothing: delivered once', async () => {
    const { alice } = stack.credentials;
    await subscribe('flaky', alice);
    receiver.answer('/flaky', 500, 502, 503);
    await run(alice);
    await waitFor(async () => (await delivery('flaky', alice))?.attempts === '2', { timeoutMs: 20_000, what: 'two failed attempts recorded' });
    // Between attempts the delivery is a delayed job in Redis: every worker killed, another started.
    for (const worker of stack.workers) worker.kill('SIGKILL');
    await Promise.all(stack.workers.map((worker) => worker.exited));
    stack.addWorker();
    await waitFor(() => accepted(receiver, '/flaky').length === 1, { timeoutMs: 40_000, what: 'the delivery after the crash' });
    const ids = new Set(receiver.at('/flaky').map((one) => one.headers['webhook-id']));
    expect(ids.size).toBe(1);
    expect(receiver.at('/flaky').map((one) => one.status)).toEqual([500, 502, 503, 204]);
    expect(await delivery('flaky', alice)).toMatchObject({ state: 'delivered', attempts: '4', lastStatus: '204' });
    // Nothing more comes of it.
    await waitFor(async () => (await stack.redis.zcard(stack.keys.webhookOutbox())) === 0, { timeoutMs: 10_000, what: 'an empty outbox' });
    expect(accepted(receiver, '/flaky')).toHaveLength(1);
  });

  it('a restart of every process while a delivery waits for its retry: delivered, once', async () => {
    const { alice } = stack.credentials;
    await subscribe('restarted', alice);
    receiver.answer('/restarted', 500);
    await run(alice);
    await waitFor(async () => (await delivery('restarted', alice))?.attempts === '1', { timeoutMs: 20_000, what: 'the failed attempt recorded' });
    for (const process of [stack.api, ...stack.workers]) process.kill('SIGKILL');
    await Promise.all([stack.api, ...stack.workers].map((process) => process.exited));
    const api = await stack.addApi();
    stack.addWorker();
    await waitFor(() => accepted(receiver, '/restarted').length === 1, { timeoutMs: 40_000, what: 'the delivery after the restart' });
    const res = await stack.call('GET', '/webhooks/restarted/deliveries', alice, { via: api });
    expect(res.json().deliveries[0]).toMatchObject({ state: 'delivered', attempts: '2' });
    expect(new Set(receiver.at('/restarted').map((one) => one.headers['webhook-id'])).size).toBe(1);
    // Later checks ask the new API.
    stack.http = stack.apis[api]?.http ?? stack.http;
  });

  it('a 410 disables the subscription; a redelivery sends the same webhook-id again', async () => {
    const { alice } = stack.credentials;
    await subscribe('gone', alice);
    receiver.answer('/gone', 410);
    await run(alice);
    await waitFor(async () => (await delivery('gone', alice))?.state === 'dead', { timeoutMs: 20_000, what: 'the delivery to end dead' });
    const shown = (await stack.call('GET', '/webhooks/gone', alice)).json();
    expect(shown.disabled.reason).toMatch(/410/);
    // Written again it is enabled; asked to, its delivery goes again, with the same id.
    await stack.call('PUT', '/webhooks/gone', alice, { body: JSON.stringify({ url: receiver.url('/gone'), events: ['execution.ended'] }) });
    const dead = await delivery('gone', alice);
    const again = await stack.call('POST', `/webhooks/gone/deliveries/${dead?.id}/redeliver`, alice);
    expect(again.status).toBe(202);
    await waitFor(() => accepted(receiver, '/gone').length === 1, { timeoutMs: 20_000, what: 'the redelivery' });
    expect(receiver.at('/gone').map((one) => one.headers['webhook-id'])).toEqual([dead?.id, dead?.id]);
  });

  it("a run's own call-back gets its end, signed with the notify secret, in both secrets while a rotation overlaps", async () => {
    const { bob } = stack.credentials;
    const first = (await stack.call('PUT', '/webhooks/notify', bob, { body: '{}' })).json().secret as string;
    const second = (await stack.call('POST', '/webhooks/notify/rotate-secret', bob)).json().secret as string;
    const res = await run(bob, `&notify=${encodeURIComponent(receiver.url('/mine'))}`);
    expect(res.status).toBe(202);
    await waitFor(() => receiver.at('/mine').length === 1, { timeoutMs: 20_000, what: 'the call-back' });
    const [only] = receiver.at('/mine');
    for (const secret of [first, second]) {
      expect(new Webhook(secret).verify(only?.body ?? '', only?.headers as Record<string, string>)).toMatchObject({
        type: 'execution.ended',
        data: { execution: { id: res.json().id } },
      });
    }
  });
});
