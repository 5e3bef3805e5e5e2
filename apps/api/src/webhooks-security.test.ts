import { createAccountStore } from '@ces/accounts';
import { createWebhookDeliveries, createWebhookStore, webhookDeliveryId } from '@ces/store';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// Webhooks are an account's own and their secrets are shown once: another account finds nothing,
// an application needs the right, and no secret is in Redis in clear or in any later answer.
const body = (spec: Record<string, unknown> = {}) => JSON.stringify({ url: 'https://hooks.example.com/in', events: ['execution.ended'], ...spec });
const hookApp = { account: 'acme', name: 'hook-app', secret: 'hook-app-key-0123456789abcdef0123456789' };

describe('webhook security', () => {
  let t: InProcessApp;
  let secret = '';
  let deliveryId = '';

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
    // An application limited to Encoding, granted the right to write webhooks.
    await createAccountStore({ redis: t.redis, keys: t.keys }).putApp('acme', hookApp.name, hookApp.secret, ['/Library/Utilities/Encoding/**'], 'admin', [
      'webhooks',
    ]);
    secret = (await (await t.call('PUT', '/webhooks/acme-hook', t.credentials.alice, { body: body() })).json()).secret;
    deliveryId = webhookDeliveryId('acme', 'acme-hook', 'f'.repeat(32), 'end');
    await createWebhookDeliveries({ redis: t.redis, keys: t.keys, retentionSeconds: 300 }).open(
      { id: deliveryId, account: 'acme', webhook: 'acme-hook', executionId: 'f'.repeat(32), type: 'execution.ended', url: 'https://x.example', body: '{}' },
      Date.now(),
    );
  });

  afterAll(async () => {
    await t?.close();
  });

  it("answers another account 404 for every operation on acme's webhook and its deliveries", async () => {
    const { bob } = t.credentials;
    for (const [method, path] of [
      ['GET', '/webhooks/acme-hook'],
      ['DELETE', '/webhooks/acme-hook'],
      ['POST', '/webhooks/acme-hook/rotate-secret'],
      ['GET', '/webhooks/acme-hook/deliveries'],
      ['POST', `/webhooks/acme-hook/deliveries/${deliveryId}/redeliver`],
    ] as const) {
      expect((await t.call(method, path, bob)).status, `${method} ${path}`).toBe(404);
    }
    expect(await (await t.call('GET', '/webhooks', bob)).json()).toEqual({ webhooks: [] });
    // Bob's own webhook of the same name is his, and leaves acme's alone.
    expect((await t.call('PUT', '/webhooks/acme-hook', bob, { body: body({ url: 'https://bob.example.com/in' }) })).status).toBe(201);
    expect((await (await t.call('GET', '/webhooks/acme-hook', t.credentials.alice)).json()).url).toBe('https://hooks.example.com/in');
    // Nor does his webhook's name reach acme's delivery.
    expect((await t.call('POST', `/webhooks/acme-hook/deliveries/${deliveryId}/redeliver`, bob)).status).toBe(404);
  });

  it('lets an application without the webhooks right do nothing: 403', async () => {
    const { encodingApp, acmeApp } = t.credentials;
    for (const app of [encodingApp, acmeApp]) {
      for (const [method, path, withBody] of [
        ['GET', '/webhooks', false],
        ['GET', '/webhooks/acme-hook', false],
        ['PUT', '/webhooks/by-app', true],
        ['DELETE', '/webhooks/acme-hook', false],
        ['POST', '/webhooks/acme-hook/rotate-secret', false],
        ['GET', '/webhooks/acme-hook/deliveries', false],
        ['PUT', '/webhooks/notify', true],
      ] as const) {
        const res = await t.call(method, path, app, withBody ? { body: body() } : {});
        expect(res.status, `${app.name} ${method} ${path}`).toBe(403);
        expect((await res.json()).error.message).toMatch(/"webhooks" right/);
      }
    }
  });

  it('an application granted the right writes webhooks that see no more runs than it may', async () => {
    const res = await t.call('PUT', '/webhooks/by-app', hookApp, { body: body() });
    expect(res.status).toBe(201);
    const stored = await createWebhookStore({ redis: t.redis, keys: t.keys, cipher: t.cipher as NonNullable<typeof t.cipher>, maxWebhooksPerAccount: 0 }).get(
      'acme',
      'by-app',
    );
    expect(stored?.within).toEqual(['/Library/Utilities/Encoding/**']);
  });

  it('keeps no secret in clear in Redis, and answers it in no later request', async () => {
    const notify = (await (await t.call('PUT', '/webhooks/notify', t.credentials.alice, { body: '{}' })).json()).secret;
    const rotated = (await (await t.call('POST', '/webhooks/acme-hook/rotate-secret', t.credentials.alice)).json()).secret;
    const everything: string[] = [];
    for (const key of await t.redis.keys(`${t.keys.prefix}*`)) {
      const type = await t.redis.type(key);
      if (type === 'hash') everything.push(JSON.stringify(await t.redis.hgetall(key)));
      if (type === 'string') everything.push((await t.redis.get(key)) ?? '');
    }
    const dump = everything.join('\n');
    expect(dump).toContain('acme-hook');
    for (const one of [secret, notify, rotated]) {
      expect(one).toMatch(/^whsec_/);
      expect(dump).not.toContain(one);
      expect(dump).not.toContain(one.slice('whsec_'.length));
    }
    const answers = await Promise.all(
      ['/webhooks', '/webhooks/acme-hook', '/webhooks/notify', '/webhooks/acme-hook/deliveries'].map(async (path) =>
        (await t.call('GET', path, t.credentials.alice)).text(),
      ),
    );
    expect(answers.join('\n')).not.toContain('whsec_');
  });
});
