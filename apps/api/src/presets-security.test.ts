import { Writable } from 'node:stream';
import { createLogger } from '@ces/observability';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// Who may see and change presets, and where their values never go: another account's presets
// are not there (404), an application writes them only when granted, and no value reaches a log
// line, a metric, an error or Redis in clear.
const HMAC = '/choreos/Library/Utilities/Hashing/HMAC';
const SECRET = 'k-security-3b9f0c7e-never-seen';
const PLAIN = 'plain-value-2c1d8e-not-shown-either';

describe('presets: access and secrecy', () => {
  let t: InProcessApp;
  let logs = '';

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs += String(chunk);
        done();
      },
    });
    t = await startInProcessApp({
      redisUrl: inject('redisUrl'),
      logger: createLogger({ name: 'api', level: 'trace' }, sink),
    });
    const stored = await t.call('PUT', '/presets/acme-signing', t.credentials.alice, {
      body: JSON.stringify({
        inputs: [
          { name: 'Key', value: SECRET, secret: true },
          { name: 'Algorithm', value: PLAIN },
        ],
      }),
    });
    expect(stored.status).toBe(201);
  });

  afterAll(async () => {
    await t?.close();
  });

  it("keeps another account's presets out of sight: absent from its list, 404 to read, delete, overwrite or run", async () => {
    const { bob } = t.credentials;
    expect(await (await t.call('GET', '/presets', bob)).json()).toEqual({ presets: [] });
    for (const [method, path] of [
      ['GET', '/presets/acme-signing'],
      ['GET', '/presets/acme-signing?values=shown'],
      ['DELETE', '/presets/acme-signing'],
    ] as const) {
      const res = await t.call(method, path, bob);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const run = await t.call('POST', `${HMAC}?mode=async`, bob, { body: JSON.stringify({ preset: 'acme-signing', inputs: [{ name: 'Text', value: 'x' }] }) });
    expect(run.status).toBe(404);
    // Bob's own preset of the same name is his, and leaves acme's alone.
    expect((await t.call('PUT', '/presets/acme-signing', bob, { body: JSON.stringify({ inputs: [{ name: 'Key', value: 'bob-key' }] }) })).status).toBe(201);
    const acme = await (await t.call('GET', '/presets/acme-signing', t.credentials.alice)).json();
    expect(acme.inputs.map((input: { name: string }) => input.name)).toEqual(['Key', 'Algorithm']);
  });

  it('lets an application without the presets right read names only: 403 to write, delete or see values', async () => {
    const { encodingApp } = t.credentials;
    const body = JSON.stringify({ inputs: [{ name: 'Key', value: 'app-key' }] });
    for (const [method, path, withBody] of [
      ['PUT', '/presets/by-encoding-app', true],
      ['PUT', '/presets/acme-signing', true],
      ['DELETE', '/presets/acme-signing', false],
      ['GET', '/presets/acme-signing?values=shown', false],
    ] as const) {
      const res = await t.call(method, path, encodingApp, withBody ? { body } : {});
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await res.json()).error.message).toMatch(/"presets" right/);
    }
    expect((await t.call('GET', '/presets/acme-signing', encodingApp)).status).toBe(200);
    expect((await t.call('GET', '/presets/acme-signing', t.credentials.alice)).status).toBe(200);
  });

  it('never writes a value in clear to Redis, in the preset or in a run that used it', async () => {
    const run = await t.call('POST', `${HMAC}?mode=async`, t.credentials.alice, {
      body: JSON.stringify({ preset: 'acme-signing', inputs: [{ name: 'Text', value: 'x' }] }),
    });
    expect(run.status).toBe(202);
    const everything: string[] = [];
    for (const key of await t.redis.keys(`${t.keys.prefix}*`)) {
      const type = await t.redis.type(key);
      if (type === 'hash') everything.push(JSON.stringify(await t.redis.hgetall(key)));
      if (type === 'string') everything.push((await t.redis.get(key)) ?? '');
    }
    const dump = everything.join('\n');
    expect(dump).toContain('acme-signing');
    expect(dump).not.toContain(SECRET);
    expect(dump).not.toContain(PLAIN);
  });

  it('shows a value in no log line, metric or error, whatever was asked', async () => {
    const { alice, bob } = t.credentials;
    // Errors that could echo what they were given.
    await t.call('PUT', '/presets/broken', alice, { body: `{"inputs": [{"name": "Key", "value": "${SECRET}` });
    await t.call('PUT', '/presets/broken', alice, { body: JSON.stringify({ inputs: [{ name: 'Key', value: SECRET, secret: 'yes' }] }) });
    const answers = [
      // An unknown preset is named in its answer, as the original names it; the inputs given with it are not.
      await (
        await t.call('POST', `${HMAC}?mode=async`, alice, { body: JSON.stringify({ preset: 'missing', inputs: [{ name: 'Key', value: SECRET }] }) })
      ).text(),
      await (await t.call('POST', `${HMAC}?mode=async`, bob, { body: JSON.stringify({ preset: 'acme-signing' }) })).text(),
      await (await t.call('GET', '/presets/acme-signing', alice)).text(),
      await (await t.call('GET', '/presets/acme-signing?values=shown', alice)).text(),
      await (await t.call('PUT', '/presets/acme-signing', alice, { body: JSON.stringify({ inputs: [{ name: 'Key', value: SECRET, secret: true }] }) })).text(),
    ];
    expect(answers.join('\n')).not.toContain(SECRET);
    expect(logs).toContain('/presets/acme-signing');
    expect(logs).not.toContain(SECRET);
    expect(logs).not.toContain(PLAIN);
    const metrics = await t.metrics.registry.metrics();
    expect(metrics).not.toContain(SECRET);
    expect(metrics).not.toContain(PLAIN);
  });
});
