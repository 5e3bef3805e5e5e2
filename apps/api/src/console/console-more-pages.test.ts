import { createAccountStore } from '@ces/accounts';
import { createWebhookDeliveries, createWebhookQueue, webhookDeliveryId, webhookJobId } from '@ces/store';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { consoleVisitor } from '../test-support/console-visitor.ts';
import { failedRun } from '../test-support/failed-runs.ts';
import { startInProcessApp, type InProcessApp } from '../test-support/in-process-app.ts';
import { formatTime } from './console-times.ts';

// The console's redrive, schedules and webhooks pages over HTTP, in process: what each credential
// may do there is what the API lets it do. No worker: runs stay queued.
const ENCODE = '/Library/Utilities/Encoding/Base64Encode';
const HMAC = '/Library/Utilities/Hashing/HMAC';
const CROSS_SITE = { origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' };

const formFields = (page: string, action: string) => {
  const form = new RegExp(`<form method="post" action="${action.replaceAll('/', '\\/')}">([\\s\\S]*?)</form>`).exec(page)?.[1] ?? '';
  return Object.fromEntries([...form.matchAll(/<input type="hidden" name="([a-z]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]));
};

describe('console: redrive, schedules, webhooks', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('redrives a failed run from its page, once for a form sent twice, and links both runs', async () => {
    const failed = await failedRun(t, { choreo: ENCODE, inputs: { Text: 'hello' } });
    const browser = consoleVisitor(t);
    await browser.signIn(t.credentials.alice);
    const page = await (await browser.request(`/console/runs/${failed}`)).text();
    expect(page).toContain(`action="/console/runs/${failed}/redrive"`);
    const confirm = await (await browser.request(`/console/runs/${failed}/redrive`)).text();
    const fields = formFields(confirm, `/console/runs/${failed}/redrive`);
    expect(fields.key).toMatch(/^console-redrive-[0-9a-f]{32}$/);
    expect((await browser.request(`/console/runs/${failed}/redrive`, { form: { key: fields.key as string } })).status).toBe(403);
    expect((await browser.request(`/console/runs/${failed}/redrive`, { form: fields, headers: CROSS_SITE })).status).toBe(403);
    const done = await browser.request(`/console/runs/${failed}/redrive`, { form: fields });
    expect(done.status).toBe(303);
    const location = done.headers.get('location') ?? '';
    expect(location).toMatch(/^\/console\/runs\/[0-9a-f]{32}$/);
    expect((await browser.request(`/console/runs/${failed}/redrive`, { form: fields })).headers.get('location')).toBe(location);
    const redrive = location.split('/').at(-1) as string;
    expect((await t.executions.summary(redrive, { withOutputs: false }))?.redriveOf).toBe(failed);
    expect(await (await browser.request(location)).text()).toContain(`<a href="/console/runs/${failed}" id="redrive-of">`);
    expect(await (await browser.request(`/console/runs/${failed}`)).text()).toContain(`<a href="/console/runs/${redrive}" id="redriven-by">`);
    // The redrive is RUNNING: another is refused as the API refuses it.
    const again = await browser.request(`/console/runs/${failed}/redrive`, { form: { ...fields, key: 'console-redrive-another' } });
    expect(again.status).toBe(409);
  });

  it("answers 404 to a redrive of another account's run, or of a Choreo the application may not see, and offers none to operators", async () => {
    const failed = await failedRun(t, { choreo: HMAC, inputs: { Text: 'x', Key: 'k' } });
    const bob = consoleVisitor(t);
    await bob.signIn(t.credentials.bob);
    expect((await bob.request(`/console/runs/${failed}/redrive`)).status).toBe(404);
    expect((await bob.request(`/console/runs/${failed}/redrive`, { form: { csrf: await bob.csrf(), key: 'console-redrive-bob' } })).status).toBe(404);
    const app = consoleVisitor(t);
    await app.signIn(t.credentials.encodingApp);
    expect((await app.request(`/console/runs/${failed}/redrive`, { form: { csrf: await app.csrf(), key: 'console-redrive-app' } })).status).toBe(404);
    const operator = { account: '', name: 'oncall', secret: 'operator-password-0123456789' };
    await createAccountStore({ redis: t.redis, keys: t.keys }).putOperator(operator.name, operator.secret);
    const ops = consoleVisitor(t);
    await ops.signIn(operator);
    expect(await (await ops.request(`/console/runs/${failed}`)).text()).not.toContain('/redrive"');
    expect((await ops.request(`/console/runs/${failed}/redrive`)).status).toBe(404);
    expect(await (await ops.request('/console/schedules')).text()).toContain('<code>/ops</code> does not show them');
    expect((await t.executions.summary(failed, { withOutputs: false }))?.redrivenBy).toBeUndefined();
  });

  it("lists the account's schedules with their next times and last run, and filters the runs to one", async () => {
    const { alice, bob } = t.credentials;
    const body = JSON.stringify({
      choreo: HMAC,
      inputs: [
        { name: 'Text', value: 'tick' },
        { name: 'Key', value: 'k' },
      ],
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Berlin',
    });
    expect((await t.call('PUT', '/schedules/console-morning', alice, { body })).status).toBe(201);
    expect((await t.call('POST', '/schedules/console-morning/trigger', alice)).status).toBe(202);
    const shown = (await (await t.call('GET', '/schedules/console-morning', alice)).json()) as { nextTimes: string[]; lastRun: { id: string } };
    const browser = consoleVisitor(t);
    await browser.signIn(alice);
    const page = await (await browser.request('/console/schedules')).text();
    expect(page).toContain('<th scope="row">console-morning</th>');
    expect(page).toContain('<code>0 9 * * 1-5</code> (Europe/Berlin)');
    for (const time of shown.nextTimes) expect(page).toContain(formatTime(Number(time)));
    expect(page).toContain(`<a href="/console/runs/${shown.lastRun.id}">`);
    expect(page).toContain('href="/console/runs?schedule=console-morning&amp;choreo=%2FLibrary%2FUtilities%2FHashing%2FHMAC"');
    const other = await failedRun(t, { choreo: HMAC, inputs: { Text: 'x', Key: 'k' } });
    const runs = await (await browser.request(`/console/runs?schedule=console-morning&choreo=${encodeURIComponent(HMAC)}`)).text();
    expect(runs).toContain(shown.lastRun.id);
    expect(runs).not.toContain(other);
    expect((await browser.request('/console/runs?schedule=%2Fnot-a-name')).status).toBe(400);
    const bobs = consoleVisitor(t);
    await bobs.signIn(bob);
    expect(await (await bobs.request('/console/schedules')).text()).not.toContain('console-morning');
    expect(await (await bobs.request('/console/runs?schedule=console-morning')).text()).not.toContain(shown.lastRun.id);
  });

  it('lists webhooks without their secrets, with deliveries sent again by the Redeliver button', async () => {
    const { alice, bob } = t.credentials;
    const created = await t.call('PUT', '/webhooks/console-ends', alice, {
      body: JSON.stringify({ url: 'https://hooks.example.com/in', events: ['execution.ended'] }),
    });
    const { secret } = (await created.json()) as { secret: string };
    const deliveries = createWebhookDeliveries({ redis: t.redis, keys: t.keys, retentionSeconds: 300 });
    const execution = 'e'.repeat(32);
    const id = webhookDeliveryId('acme', 'console-ends', execution, 'end');
    await deliveries.open(
      { id, account: 'acme', webhook: 'console-ends', executionId: execution, type: 'execution.ended', url: 'https://hooks.example.com/in', body: '{}' },
      1_000,
    );
    await deliveries.recordAttempt({ id, account: 'acme' }, { round: 0, now: 2_000, status: 503, error: 'unavailable', outcome: 'dead' });
    const browser = consoleVisitor(t);
    await browser.signIn(alice);
    const page = await (await browser.request('/console/webhooks')).text();
    expect(page).toContain('<h2 id="webhook-console-ends-title">console-ends</h2>');
    expect(page).toContain('<code>https://hooks.example.com/in</code>');
    expect(page).toContain(`<a href="/console/runs/${execution}">`);
    expect(page).toContain('unavailable');
    expect(page).not.toContain(secret);
    const action = `/console/webhooks/console-ends/deliveries/${id}/redeliver`;
    const fields = formFields(page, action);
    expect((await browser.request(action, { form: {} })).status).toBe(403);
    expect((await browser.request(action, { form: fields, headers: CROSS_SITE })).status).toBe(403);
    const done = await browser.request(action, { form: fields });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/console/webhooks?redelivered=1#webhook-console-ends');
    const queue = createWebhookQueue({ connection: t.redis, keys: t.keys });
    expect((await queue.getJob(webhookJobId(id, 1)))?.data).toEqual({ deliveryId: id, round: 1 });
    await queue.close();
    // Another account's delivery is not there; an application without the right is refused as by the API.
    const bobs = consoleVisitor(t);
    await bobs.signIn(bob);
    expect(await (await bobs.request('/console/webhooks')).text()).not.toContain('console-ends');
    expect((await bobs.request(action, { form: { csrf: await bobs.csrf() } })).status).toBe(404);
    const app = consoleVisitor(t);
    await app.signIn(t.credentials.encodingApp);
    expect(await (await app.request('/console/runs')).text()).not.toContain('href="/console/webhooks"');
    expect((await app.request('/console/webhooks')).status).toBe(403);
    expect((await app.request(action, { form: { csrf: await app.csrf() } })).status).toBe(403);
    expect((await t.call('GET', '/webhooks', t.credentials.encodingApp)).status).toBe(403);
  });
});

describe('console: webhooks on a service without SECRETS_KEY', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl'), withoutSecretsKey: true });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('says why a Redeliver cannot be done, as the API does, rather than that something failed', async () => {
    const browser = consoleVisitor(t);
    await browser.signIn(t.credentials.alice);
    const answer = await browser.request('/console/webhooks/orders/deliveries/d1/redeliver', { form: { csrf: await browser.csrf() } });
    expect(answer.status).toBe(503);
    expect(await answer.text()).toContain('Webhooks are not available: this service has no SECRETS_KEY');
  });
});
