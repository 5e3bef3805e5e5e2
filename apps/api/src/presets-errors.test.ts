import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// What a preset request that cannot be served is answered: a clear error in the negotiated format,
// and nothing stored or queued.
const HMAC = '/choreos/Library/Utilities/Hashing/HMAC';

describe('preset requests refused', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl'), maxPresetsPerAccount: 3 });
  });

  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['no body', '', /needs a body/],
    ['JSON that does not parse', '{"inputs": [{"name": "Key", "value": "half-written-secret', /not valid JSON/],
    ['no inputs list', '{"name": "Key"}', /must be a JSON object/],
    ['an empty list', '{"inputs": []}', /at least one input/],
    ['an input without a name', '{"inputs": [{"value": "v"}]}', /name must be a string/],
    ['a value that is an object', '{"inputs": [{"name": "Key", "value": {}}]}', /must be a string, number or boolean/],
    ['a secret flag that is not a boolean', '{"inputs": [{"name": "Key", "value": "v", "secret": "yes"}]}', /secret must be true or false/],
    ['a name given twice', '{"inputs": [{"name": "Key", "value": "a"}, {"name": "Key", "value": "b"}]}', /more than once/],
  ])('answers %s with 400', async (_, body, message) => {
    const res = await t.call('PUT', '/presets/refused', t.credentials.alice, { body });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('half-written-secret');
    expect((await t.call('GET', '/presets/refused', t.credentials.alice)).status).toBe(404);
  });

  it('answers a bad XML body with 400 in XML when XML is asked for', async () => {
    const res = await t.call('PUT', '/presets/refused', t.credentials.alice, {
      body: '<inputs><input><name>Key</name></input></inputs>',
      headers: { 'content-type': 'application/xml' },
      accept: 'application/xml',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/<code>BAD_REQUEST<\/code>.*needs exactly one &lt;value&gt;/s);
  });

  it('answers another media type with 415, a bad name with 400, a method it does not take with 405', async () => {
    const { alice } = t.credentials;
    expect((await t.call('PUT', '/presets/refused', alice, { body: 'Key=v', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    const badName = await t.call('PUT', `/presets/${encodeURIComponent('-starts-with-dash')}`, alice, { body: '{"inputs": [{"name": "a", "value": "b"}]}' });
    expect(badName.status).toBe(400);
    expect((await badName.json()).error.message).toMatch(/preset name/);
    const post = await t.call('POST', '/presets/refused', alice, { body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, PUT, DELETE');
    expect((await t.call('GET', '/presets/refused?values=everything', alice)).status).toBe(400);
  });

  it('refuses a preset past the number an account may keep with 409, and still replaces one it keeps', async () => {
    const { alice } = t.credentials;
    const body = '{"inputs": [{"name": "Text", "value": "x"}]}';
    for (const name of ['one', 'two', 'three']) expect((await t.call('PUT', `/presets/${name}`, alice, { body })).status).toBe(201);
    const fourth = await t.call('PUT', '/presets/four', alice, { body });
    expect(fourth.status).toBe(409);
    expect((await fourth.json()).error.message).toMatch(/already keeps 3 presets/);
    expect((await t.call('PUT', '/presets/one', alice, { body })).status).toBe(200);
    for (const name of ['one', 'two', 'three']) await t.call('DELETE', `/presets/${name}`, alice);
  });

  it('answers a run naming an unknown preset with 404 before anything is stored or queued', async () => {
    const before = await t.queue.getJobCounts('wait', 'delayed');
    const keysBefore = await t.redis.keys(`${t.keys.prefix}:exec:*`);
    for (const preset of ['missing', '../../etc', 'x'.repeat(256)]) {
      const res = await t.call('POST', `${HMAC}?mode=async`, t.credentials.alice, { body: JSON.stringify({ preset, inputs: [{ name: 'Text', value: 't' }] }) });
      expect(res.status).toBe(404);
      expect((await res.json()).error).toMatchObject({ code: 'NOT_FOUND', message: `preset "${preset}" does not exist` });
    }
    expect(await t.queue.getJobCounts('wait', 'delayed')).toEqual(before);
    expect(await t.redis.keys(`${t.keys.prefix}:exec:*`)).toEqual(keysBefore);
  });

  it('answers a run whose preset leaves a required input missing with 400, and a preset that is not a name with 400', async () => {
    const { alice } = t.credentials;
    await t.call('PUT', '/presets/no-key', alice, { body: '{"inputs": [{"name": "Text", "value": "x"}]}' });
    const missing = await t.call('POST', `${HMAC}?mode=async`, alice, { body: JSON.stringify({ preset: 'no-key' }) });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.message).toMatch(/Required input missing: Key/);
    for (const preset of [7, 'x'.repeat(257), 'line\nbreak']) {
      const notAName = await t.call('POST', `${HMAC}?mode=async`, alice, { body: JSON.stringify({ preset }) });
      expect(notAName.status, JSON.stringify(preset)).toBe(400);
    }
  });

  it('tells runs given with one Idempotency-Key apart by their sealed inputs too, without keeping them', async () => {
    const { alice } = t.credentials;
    const store = (value: string) =>
      t.call('POST', '/choreos/Library/Utilities/TokenStorage/StoreToken?mode=async', alice, {
        body: JSON.stringify({
          inputs: [
            { name: 'Name', value: 'crm' },
            { name: 'Value', value },
          ],
        }),
        headers: { 'idempotency-key': 'store-crm-1' },
      });
    const first = await store('token-value-one');
    expect(first.status).toBe(202);
    const again = await store('token-value-one');
    expect(again.status).toBe(202);
    expect((await again.json()).id).toBe((await first.json()).id);
    const other = await store('token-value-two');
    expect(other.status).toBe(409);
    const entries = await t.redis.keys(`${t.keys.prefix}:idempotency:*`);
    const stored = await Promise.all(entries.map((key) => t.redis.get(key)));
    expect(stored.join('\n')).not.toContain('token-value');
  });

  describe('a service without SECRETS_KEY', () => {
    let bare: InProcessApp;

    beforeAll(async () => {
      bare = await startInProcessApp({ redisUrl: inject('redisUrl'), withoutSecretsKey: true });
    });

    afterAll(async () => {
      await bare?.close();
    });

    it('answers preset requests, and runs naming a preset, with 503 saying why', async () => {
      const { alice } = bare.credentials;
      for (const [method, path, body] of [
        ['GET', '/presets', undefined],
        ['PUT', '/presets/p', '{"inputs": [{"name": "Text", "value": "x"}]}'],
        ['POST', `${HMAC}?mode=async`, JSON.stringify({ preset: 'p', inputs: [{ name: 'Text', value: 't' }] })],
      ] as const) {
        const res = await bare.call(method, path, alice, body === undefined ? {} : { body });
        expect(res.status, `${method} ${path}`).toBe(503);
        expect((await res.json()).error.message).toMatch(/SECRETS_KEY/);
      }
      // Nor does a Choreo with secret inputs run, rather than keep them in clear.
      const storeToken = await bare.call('POST', '/choreos/Library/Utilities/TokenStorage/StoreToken?mode=async', alice, {
        body: JSON.stringify({
          inputs: [
            { name: 'Name', value: 'n' },
            { name: 'Value', value: 'v' },
          ],
        }),
      });
      expect(storeToken.status).toBe(503);
      expect((await storeToken.json()).error.message).toMatch(/SECRETS_KEY/);
      // Runs without a preset go on as before.
      const run = await bare.call('POST', `${HMAC}?mode=async`, alice, {
        body: JSON.stringify({
          inputs: [
            { name: 'Text', value: 't' },
            { name: 'Key', value: 'k' },
          ],
        }),
      });
      expect(run.status).toBe(202);
    });
  });
});
