import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// What a webhook request that cannot be served is answered: a clear error in the negotiated format
// (document problems at their JSON pointers), and nothing stored.
const ENCODE = '/choreos/Library/Utilities/Encoding/Base64Encode';
const RUN_BODY = JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] });

describe('webhook requests refused', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl'), config: { maxWebhooksPerAccount: 2 } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['a URL that is not https', { url: 'http://hooks.example.com/in', events: ['execution.ended'] }, [['/url', /https/]]],
    ['a URL with credentials', { url: 'https://user:pass@hooks.example.com/in', events: ['execution.ended'] }, [['/url', /credentials/]]],
    ['no events', { url: 'https://hooks.example.com/in' }, [['/events', /one or more/]]],
    ['an unknown event', { url: 'https://hooks.example.com/in', events: ['execution.ended', 'run.done'] }, [['/events/1', /must be one of/]]],
    ['a bad Choreo pattern', { url: 'https://hooks.example.com/in', events: ['execution.ended'], choreos: ['Library'] }, [['/choreos/0', /pattern/]]],
    ['an unknown field, and everything wrong at once', { secret: 'mine', url: 'ftp://x', events: 'all' }, [['/secret'], ['/url'], ['/events']]],
  ] as const)('answers %s with 400 and each problem at its pointer', async (_, document, problems) => {
    const res = await t.call('PUT', '/webhooks/refused', t.credentials.alice, { body: JSON.stringify(document) });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toMatch(/^The webhook has \d problems?/);
    expect(error.problems.map((problem: { pointer: string }) => problem.pointer)).toEqual(problems.map(([pointer]) => pointer));
    for (const [index, [, message]] of problems.entries()) if (message) expect(error.problems[index].message).toMatch(message);
    expect((await t.call('GET', '/webhooks/refused', t.credentials.alice)).status).toBe(404);
  });

  it('answers a body that is not JSON, an empty one, XML of another root and another media type', async () => {
    const { alice } = t.credentials;
    const put = (body: string, contentType = 'application/json') =>
      t.call('PUT', '/webhooks/refused', alice, { body, headers: { 'content-type': contentType } });
    expect((await (await put('{"url": ')).json()).error.message).toMatch(/not valid JSON/);
    expect((await (await put('')).json()).error.message).toMatch(/needs a body/);
    const xml = await put('<inputs/>', 'application/xml');
    expect(xml.status).toBe(400);
    expect((await xml.json()).error.message).toMatch(/<webhook>/);
    expect((await put('url=x', 'application/x-www-form-urlencoded')).status).toBe(415);
  });

  it('refuses a name that is not one (400), and answers 404 for what does not exist', async () => {
    const { alice } = t.credentials;
    const body = JSON.stringify({ url: 'https://hooks.example.com/in', events: ['execution.ended'] });
    expect((await t.call('PUT', '/webhooks/-starts-with-a-dash', alice, { body })).status).toBe(400);
    for (const [method, path] of [
      ['GET', '/webhooks/none'],
      ['DELETE', '/webhooks/none'],
      ['POST', '/webhooks/none/rotate-secret'],
      ['GET', '/webhooks/none/deliveries'],
      ['POST', `/webhooks/none/deliveries/msg_${'0'.repeat(32)}/redeliver`],
      ['POST', '/webhooks/none/deliveries/not-an-id/redeliver'],
      ['GET', '/webhooks/notify'],
    ] as const) {
      expect((await t.call(method, path, alice)).status, `${method} ${path}`).toBe(404);
    }
  });

  it('answers 405 with Allow for a method a webhook path does not take', async () => {
    const res = await t.call('POST', '/webhooks/any', t.credentials.alice, { body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PUT, DELETE');
  });

  it('refuses one webhook past the account limit with 409', async () => {
    const { alice } = t.credentials;
    const body = JSON.stringify({ url: 'https://hooks.example.com/in', events: ['execution.ended'] });
    expect((await t.call('PUT', '/webhooks/first', alice, { body })).status).toBe(201);
    expect((await t.call('PUT', '/webhooks/second', alice, { body })).status).toBe(201);
    const third = await t.call('PUT', '/webhooks/third', alice, { body });
    expect(third.status).toBe(409);
    expect((await third.json()).error.message).toMatch(/already keeps 2 webhooks/);
    // A replace is no new one.
    expect((await t.call('PUT', '/webhooks/first', alice, { body })).status).toBe(200);
  });

  it('refuses ?notify= without a notify secret, and with a URL that is not https; the notify secret takes {} only', async () => {
    const { bob } = t.credentials;
    const run = (notify: string) => t.call('POST', `${ENCODE}?mode=async&notify=${encodeURIComponent(notify)}`, bob, { body: RUN_BODY });
    const without = await run('https://hooks.example.com/run');
    expect(without.status).toBe(400);
    expect((await without.json()).error.message).toMatch(/notify secret/);
    expect((await t.call('PUT', '/webhooks/notify', bob, { body: '{"url": "https://x.example"}' })).status).toBe(400);
    expect((await t.call('PUT', '/webhooks/notify', bob, { body: '{}' })).status).toBe(201);
    for (const url of ['http://hooks.example.com/run', 'not a url', `https://hooks.example.com/${'x'.repeat(2100)}`]) {
      const res = await run(url);
      expect(res.status, url).toBe(400);
      expect((await res.json()).error.message).toMatch(/notify/);
    }
    expect((await run('https://hooks.example.com/run')).status).toBe(202);
  });
});

describe('webhook requests without SECRETS_KEY', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl'), withoutSecretsKey: true });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers 503: no secret could be kept', async () => {
    const { alice } = t.credentials;
    const put = await t.call('PUT', '/webhooks/any', alice, { body: JSON.stringify({ url: 'https://x.example', events: ['execution.ended'] }) });
    expect(put.status).toBe(503);
    expect((await put.json()).error.message).toMatch(/SECRETS_KEY/);
    expect((await t.call('GET', '/webhooks', alice)).status).toBe(503);
  });
});
