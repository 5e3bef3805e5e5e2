import { createWebhookDeliveries, createWebhookQueue, webhookDeliveryId, webhookJobId } from '@ces/store';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// Webhooks as a well-behaved client uses them, in process: written, shown, listed, rotated,
// deleted, in JSON and XML; the notify secret and a run that names its call-back; a delivery
// listed and sent again (no worker: nothing is sent, the jobs stay queued).
const xml = new XMLParser({ ignoreDeclaration: true, parseTagValue: false, isArray: (name) => ['webhook', 'event', 'choreo', 'delivery'].includes(name) });
const ENCODE = '/choreos/Library/Utilities/Encoding/Base64Encode';
const hook = (spec: Record<string, unknown>) => JSON.stringify({ url: 'https://hooks.example.com/in', events: ['execution.ended'], ...spec });

describe('webhooks in process', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('creates a webhook (201, its secret once), replaces it (200, no secret), shows, lists and deletes it', async () => {
    const { alice } = t.credentials;
    const created = await t.call('PUT', '/webhooks/ends', alice, { body: hook({ choreos: ['/Library/**'] }) });
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({ name: 'ends', url: 'https://hooks.example.com/in', events: ['execution.ended'], choreos: ['/Library/**'] });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);

    const replaced = await t.call('PUT', '/webhooks/ends', alice, { body: hook({ events: ['execution.ended', 'execution.failed'] }) });
    expect(replaced.status).toBe(200);
    const after = await replaced.json();
    expect(after.secret).toBeUndefined();
    expect(after.events).toEqual(['execution.ended', 'execution.failed']);
    expect(after.choreos).toBeUndefined();
    expect(after.created).toBe(body.created);

    const shown = await (await t.call('GET', '/webhooks/ends', alice)).json();
    expect(shown).toEqual(after);
    await t.call('PUT', '/webhooks/another', alice, { body: hook({}) });
    const list = await (await t.call('GET', '/webhooks', alice)).json();
    expect(list.webhooks.map((webhook: { name: string }) => webhook.name)).toEqual(['another', 'ends']);
    expect(JSON.stringify(list)).not.toContain('whsec_');

    expect((await t.call('DELETE', '/webhooks/another', alice)).status).toBe(204);
    expect((await t.call('GET', '/webhooks/another', alice)).status).toBe(404);
  });

  it('speaks XML both ways', async () => {
    const { alice } = t.credentials;
    const body =
      '<webhook><url>https://hooks.example.com/xml</url><events><event>execution.started</event><event>execution.failed</event></events>' +
      '<choreos><choreo>/Library/Utilities/**</choreo></choreos></webhook>';
    const res = await t.call('PUT', '/webhooks/in-xml', alice, { body, headers: { 'content-type': 'application/xml' }, accept: 'application/xml' });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/application\/xml/);
    const { webhook } = xml.parse(await res.text());
    expect(webhook[0]).toMatchObject({
      name: 'in-xml',
      url: 'https://hooks.example.com/xml',
      events: { event: ['execution.started', 'execution.failed'] },
      choreos: { choreo: ['/Library/Utilities/**'] },
    });
    expect(webhook[0].secret).toMatch(/^whsec_/);
    const listed = xml.parse(await (await t.call('GET', '/webhooks', alice, { accept: 'application/xml' })).text());
    expect(listed.webhooks.webhook.map((one: { name: string }) => one.name)).toContain('in-xml');
  });

  it('rotates a secret: a new one answered once, the old one said to sign for a day more', async () => {
    const { alice } = t.credentials;
    const { secret } = await (await t.call('PUT', '/webhooks/rotating', alice, { body: hook({}) })).json();
    const res = await t.call('POST', '/webhooks/rotating/rotate-secret', alice);
    expect(res.status).toBe(200);
    const rotated = await res.json();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    expect(Number(rotated.previousSecretUntil)).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);
    const shown = await (await t.call('GET', '/webhooks/rotating', alice)).json();
    expect(shown.previousSecretUntil).toBeDefined();
    expect(shown.secret).toBeUndefined();
  });

  it('creates the notify secret once; a run names its call-back with ?notify=, kept with its record', async () => {
    const { alice } = t.credentials;
    const created = await t.call('PUT', '/webhooks/notify', alice, { body: '{}' });
    expect(created.status).toBe(201);
    expect((await created.json()).secret).toMatch(/^whsec_/);
    const again = await t.call('PUT', '/webhooks/notify', alice, { body: '{}' });
    expect(again.status).toBe(200);
    expect((await again.json()).secret).toBeUndefined();
    expect((await (await t.call('GET', '/webhooks/notify', alice)).json()).name).toBe('notify');

    const url = 'https://hooks.example.com/run?token=abc';
    const run = await t.call('POST', `${ENCODE}?mode=async&notify=${encodeURIComponent(url)}`, alice, {
      body: JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] }),
    });
    expect(run.status).toBe(202);
    const { id } = await run.json();
    expect((await t.executions.get(id))?.notifyUrl).toBe(url);

    // Where its end goes is part of what a run asks for: an Idempotency-Key given again with another is refused.
    const keyed = (notify: string) =>
      t.call('POST', `${ENCODE}?mode=async&notify=${encodeURIComponent(notify)}`, alice, {
        body: JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] }),
        headers: { 'idempotency-key': 'notify-key-1' },
      });
    const first = await keyed(url);
    expect(first.status).toBe(202);
    const replayed = await keyed(url);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect((await replayed.json()).id).toBe((await first.json()).id);
    expect((await keyed('https://hooks.example.com/elsewhere')).status).toBe(409);
  });

  it("lists a webhook's deliveries and sends one again with the same id", async () => {
    const { alice } = t.credentials;
    await t.call('PUT', '/webhooks/delivered', alice, { body: hook({}) });
    expect(await (await t.call('GET', '/webhooks/delivered/deliveries', alice)).json()).toEqual({ deliveries: [] });
    // A delivery as a worker's dispatcher opens it.
    const deliveries = createWebhookDeliveries({ redis: t.redis, keys: t.keys, retentionSeconds: 300 });
    const id = webhookDeliveryId('acme', 'delivered', 'e'.repeat(32), 'end');
    await deliveries.open(
      { id, account: 'acme', webhook: 'delivered', executionId: 'e'.repeat(32), type: 'execution.ended', url: 'https://x.example', body: '{}' },
      1_000,
    );
    await deliveries.recordAttempt({ id, account: 'acme' }, { round: 0, now: 2_000, status: 0, error: 'unreachable', outcome: 'dead' });
    const list = await (await t.call('GET', '/webhooks/delivered/deliveries', alice)).json();
    expect(list.deliveries).toEqual([
      { id, event: 'execution.ended', execution: 'e'.repeat(32), state: 'dead', attempts: '1', created: '1000', lastStatus: '0', lastError: 'unreachable' },
    ]);
    const res = await t.call('POST', `/webhooks/delivered/deliveries/${id}/redeliver`, alice);
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ id, state: 'pending' });
    const queue = createWebhookQueue({ connection: t.redis, keys: t.keys });
    expect((await queue.getJob(webhookJobId(id, 1)))?.data).toEqual({ deliveryId: id, round: 1 });
    await queue.close();
  });
});
