import { openRunInputs } from '@ces/store';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// Presets as a well-behaved client uses them, in process: stored, listed, described, replaced,
// deleted, in JSON and XML, and named by runs (no worker: the runs stay queued).
const xml = new XMLParser({ ignoreDeclaration: true, parseTagValue: false, isArray: (name) => ['preset', 'input'].includes(name) });
const HMAC = '/choreos/Library/Utilities/Hashing/HMAC';
const presetBody = (inputs: { name: string; value: string; secret?: boolean }[]) => JSON.stringify({ inputs });

describe('presets in process', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('stores a preset (201), replaces it (200), lists it and describes it with every value masked', async () => {
    const { alice } = t.credentials;
    const created = await t.call('PUT', '/presets/signing', alice, {
      body: presetBody([
        { name: 'Key', value: 'k-happy-secret-1', secret: true },
        { name: 'Algorithm', value: 'sha512' },
      ]),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({
      name: 'signing',
      inputs: [
        { name: 'Key', value: '********', secret: true },
        { name: 'Algorithm', value: '********', secret: false },
      ],
    });
    const replaced = await t.call('PUT', '/presets/signing', alice, {
      body: presetBody([
        { name: 'Key', value: 'k-happy-secret-2', secret: true },
        { name: 'Algorithm', value: 'sha256' },
        { name: 'Encoding', value: 'base64' },
      ]),
    });
    expect(replaced.status).toBe(200);
    await t.call('PUT', '/presets/another', alice, { body: presetBody([{ name: 'Text', value: 'x' }]) });

    const list = await t.call('GET', '/presets', alice);
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({ presets: ['another', 'signing'] });

    const described = await (await t.call('GET', '/presets/signing', alice)).json();
    expect(described.inputs.map((input: { name: string }) => input.name)).toEqual(['Key', 'Algorithm', 'Encoding']);
    expect(described.inputs.every((input: { value: string }) => input.value === '********')).toBe(true);
  });

  it('shows the values of inputs not marked secret when asked, never a secret one', async () => {
    const { alice } = t.credentials;
    await t.call('PUT', '/presets/shown', alice, {
      body: presetBody([
        { name: 'Key', value: 'k-never-shown', secret: true },
        { name: 'Algorithm', value: 'md5' },
      ]),
    });
    const res = await t.call('GET', '/presets/shown?values=shown', alice);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      name: 'shown',
      inputs: [
        { name: 'Key', value: '********', secret: true },
        { name: 'Algorithm', value: 'md5', secret: false },
      ],
    });
  });

  it('speaks XML both ways', async () => {
    const { alice } = t.credentials;
    const body =
      '<inputs><input><name>Text</name><value>from xml</value></input><input><name>Key</name><value>k-xml</value><secret>true</secret></input></inputs>';
    const put = await t.call('PUT', '/presets/in-xml', alice, { body, headers: { 'content-type': 'application/xml' }, accept: 'application/xml' });
    expect(put.status).toBe(201);
    expect(put.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(xml.parse(await put.text())).toEqual({
      preset: [
        {
          name: 'in-xml',
          inputs: {
            input: [
              { name: 'Text', value: '********', secret: 'false' },
              { name: 'Key', value: '********', secret: 'true' },
            ],
          },
        },
      ],
    });
    const list = xml.parse(await (await t.call('GET', '/presets', alice, { accept: 'application/xml' })).text());
    expect(list.presets.preset).toContain('in-xml');
  });

  it('deletes a preset: 204, then 404', async () => {
    const { alice } = t.credentials;
    await t.call('PUT', '/presets/short-lived', alice, { body: presetBody([{ name: 'Text', value: 'x' }]) });
    expect((await t.call('DELETE', '/presets/short-lived', alice)).status).toBe(204);
    expect((await t.call('GET', '/presets/short-lived', alice)).status).toBe(404);
    expect((await t.call('DELETE', '/presets/short-lived', alice)).status).toBe(404);
  });

  it("runs with a preset's inputs beneath the run's own, keeping those from the preset sealed in the record", async () => {
    const { alice } = t.credentials;
    await t.call('PUT', '/presets/for-runs', alice, {
      body: presetBody([
        { name: 'Key', value: 'k-run-secret', secret: true },
        { name: 'Algorithm', value: 'sha512' },
        { name: 'Text', value: 'overridden by the run' },
        { name: 'NotAnInput', value: 'dropped' },
      ]),
    });
    const res = await t.call('POST', `${HMAC}?mode=async`, alice, {
      body: JSON.stringify({ preset: 'for-runs', inputs: [{ name: 'Text', value: 'the run wins' }] }),
    });
    expect(res.status).toBe(202);
    const { id } = await res.json();
    const record = await t.executions.get(id);
    // The run's own inputs and the defaults in clear; the preset's nowhere in clear.
    expect(record?.inputs).toEqual({ Text: 'the run wins', Encoding: 'hex' });
    const raw = JSON.stringify(await t.redis.hgetall(t.keys.execution(id)));
    expect(raw).not.toContain('k-run-secret');
    expect(raw).not.toContain('sha512');
    expect(raw).not.toContain('overridden');
    // What a worker opens: the preset's inputs the run declares and did not override.
    expect(t.cipher && record?.sealedInputs && openRunInputs(t.cipher, id, record.sealedInputs)).toEqual({ Key: 'k-run-secret', Algorithm: 'sha512' });
    // A run with sealed inputs is always taken, where they are opened: its job never carries them.
    const job = await t.queue.getJob(id);
    expect(job?.data).toEqual({ executionId: id });
  });

  it('takes the preset from an XML run body too', async () => {
    const { alice } = t.credentials;
    await t.call('PUT', '/presets/xml-run', alice, { body: presetBody([{ name: 'Key', value: 'k-xml-run', secret: true }]) });
    const res = await t.call('POST', `${HMAC}?mode=async`, alice, {
      body: '<inputs><preset>xml-run</preset><input><name>Text</name><value>t</value></input></inputs>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.status).toBe(202);
    const record = await t.executions.get((await res.json()).id);
    expect(record?.inputs).toEqual({ Text: 't', Algorithm: 'sha256', Encoding: 'hex' });
    expect(record?.sealedInputs).toBeDefined();
  });

  it('lets an application granted the right write presets, and any of the account read their names', async () => {
    const { acmeApp, encodingApp, alice } = t.credentials;
    expect((await t.call('PUT', '/presets/by-app', acmeApp, { body: presetBody([{ name: 'Text', value: 'x' }]) })).status).toBe(201);
    expect((await (await t.call('GET', '/presets', encodingApp)).json()).presets).toContain('by-app');
    expect((await t.call('GET', '/presets/by-app', encodingApp)).status).toBe(200);
    expect((await t.call('DELETE', '/presets/by-app', alice)).status).toBe(204);
  });
});
