import { createAccountStore } from '@ces/accounts';
import { createAccountChoreoStore } from '@ces/store';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { greeterDocument, runBody } from './test-support/choreo-documents.ts';
import { startInProcessApp, type InProcessApp, type TestCredential } from './test-support/in-process-app.ts';

// An account's own Choreos through the interface in process: no worker, so runs stay queued with
// the version they were accepted with.
describe("an account's own Choreos", () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  const put = (id: string, document: unknown, credential: TestCredential = t.credentials.alice) =>
    t.call('PUT', `/choreos${id}`, credential, { body: JSON.stringify(document) });

  it('creates one (201, Location, version 1), shows it, lists it with the Library and runs it', async () => {
    const created = await put('/Mine/Greeter', greeterDocument('Hello'));
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/service-api/1.0/choreos/Mine/Greeter');
    const details = {
      valid: 'true',
      version: '1',
      inputs: { Name: { description: 'Who to greet.', type: 'STRING_VARIABLE' } },
      outputs: { Greeting: { description: 'The greeting.', type: 'STRING_VARIABLE' } },
    };
    expect(await created.json()).toEqual(details);
    expect(await (await t.call('GET', '/choreos/Mine/Greeter', t.credentials.alice)).json()).toEqual(details);

    const listed: string[] = (await (await t.call('GET', '/choreos', t.credentials.alice)).json()).resources;
    expect(listed).toContain('/Mine/Greeter');
    expect(listed).toContain('/Library/Utilities/Encoding/Base64Encode');
    expect(listed.filter((id) => id === '/Mine/Greeter')).toHaveLength(1);
    expect(listed).toEqual([...listed].sort());

    const run = await t.call('POST', '/choreos/Mine/Greeter?mode=async', t.credentials.alice, { body: runBody({ Name: 'Ann' }) });
    expect(run.status).toBe(202);
    const { id } = await run.json();
    expect((await t.executions.get(id))?.choreoVersion).toBe(1);
    const status = await (await t.call('GET', `/choreo-executions/${id}`, t.credentials.alice)).json();
    expect(status.execution).toMatchObject({ choreo: '/Mine/Greeter', version: '1', status: 'RUNNING' });
  });

  it('replaces it as a new version, while a run accepted before keeps the version and the definition it was accepted with', async () => {
    await put('/Mine/Pinned', greeterDocument('Hello'));
    const before = await (await t.call('POST', '/choreos/Mine/Pinned?mode=async', t.credentials.alice, { body: runBody({ Name: 'Ann' }) })).json();
    const replaced = await put('/Mine/Pinned', greeterDocument('Goodbye'));
    expect(replaced.status).toBe(200);
    expect((await replaced.json()).version).toBe('2');
    expect((await (await t.call('GET', '/choreos/Mine/Pinned', t.credentials.alice)).json()).version).toBe('2');
    const after = await (await t.call('POST', '/choreos/Mine/Pinned?mode=async', t.credentials.alice, { body: runBody({ Name: 'Ann' }) })).json();

    const first = await t.executions.get(before.id);
    const second = await t.executions.get(after.id);
    expect(first?.choreoVersion).toBe(1);
    expect(second?.choreoVersion).toBe(2);
    expect(first?.definitionDigest).not.toBe(second?.definitionDigest);
    // The snapshot a worker will run, by the digest the record names.
    const snapshot = await t.redis.get(t.keys.definition(first?.definitionDigest ?? ''));
    expect(JSON.parse(snapshot ?? '{}').steps[0].args.text).toBe('Hello, {{inputs.Name}}');
    const status = await (await t.call('GET', `/choreo-executions/${before.id}`, t.credentials.alice)).json();
    expect(status.execution.version).toBe('1');
  });

  it('deletes it: 204, then 404 to read, run or delete, while the runs it had keep their version; a new one takes the next version', async () => {
    await put('/Mine/Doomed', greeterDocument('Hi'));
    const run = await (await t.call('POST', '/choreos/Mine/Doomed?mode=async', t.credentials.alice, { body: runBody({ Name: 'Ann' }) })).json();
    const deleted = await t.call('DELETE', '/choreos/Mine/Doomed', t.credentials.alice);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect((await t.call('GET', '/choreos/Mine/Doomed', t.credentials.alice)).status).toBe(404);
    expect((await t.call('POST', '/choreos/Mine/Doomed', t.credentials.alice, { body: runBody({ Name: 'Ann' }) })).status).toBe(404);
    expect((await t.call('DELETE', '/choreos/Mine/Doomed', t.credentials.alice)).status).toBe(404);
    expect((await (await t.call('GET', '/choreos', t.credentials.alice)).json()).resources).not.toContain('/Mine/Doomed');
    const status = await (await t.call('GET', `/choreo-executions/${run.id}`, t.credentials.alice)).json();
    expect(status.execution).toMatchObject({ choreo: '/Mine/Doomed', version: '1' });

    const again = await put('/Mine/Doomed', greeterDocument('Hi again'));
    expect(again.status).toBe(201);
    expect((await again.json()).version).toBe('2');
  });

  it('lets an application write when it is granted the right to', async () => {
    const writer: TestCredential = { account: 'acme', name: 'writer-app', secret: `writer-${'k'.repeat(40)}` };
    await createAccountStore({ redis: t.redis, keys: t.keys }).putApp('acme', writer.name, writer.secret, ['/Tools/**'], 'admin', ['choreos']);
    expect((await put('/Tools/Greeter', greeterDocument('Hey'), writer)).status).toBe(201);
    expect((await t.call('DELETE', '/choreos/Tools/Greeter', writer)).status).toBe(204);
  });

  it('answers in XML too', async () => {
    await put('/Mine/Xml', greeterDocument('Hello'));
    const res = await t.call('GET', '/choreos/Mine/Xml', t.credentials.alice, { accept: 'application/xml' });
    expect(await res.text()).toContain('<version>1</version>');
  });

  it('keeps one whole version of concurrent PUTs of one id, each PUT with a version of its own', async () => {
    const greetings = Array.from({ length: 20 }, (_, i) => `Greeting ${i}`);
    const answers = await Promise.all(greetings.map((greeting) => put('/Mine/Raced', greeterDocument(greeting))));
    const statuses = answers.map((answer) => answer.status).sort((a, b) => b - a);
    expect(statuses).toEqual([201, ...Array.from({ length: 19 }, () => 200)]);
    const versions = await Promise.all(answers.map(async (answer) => Number((await answer.json()).version)));
    expect([...versions].sort((a, b) => a - b)).toEqual(greetings.map((_, i) => i + 1));

    const stored = await createAccountChoreoStore({ redis: t.redis, keys: t.keys }).get('acme', '/Mine/Raced');
    expect(stored?.version).toBe(20);
    const last = greetings[versions.indexOf(20)] ?? '';
    expect(JSON.parse(stored?.document ?? '{}')).toEqual(greeterDocument(last));
    expect((await (await t.call('GET', '/choreos/Mine/Raced', t.credentials.alice)).json()).version).toBe('20');
  });
});
