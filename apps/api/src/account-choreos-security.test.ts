import { createAccountStore } from '@ces/accounts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { greeterDocument, runBody } from './test-support/choreo-documents.ts';
import { startInProcessApp, type InProcessApp, type TestCredential } from './test-support/in-process-app.ts';

// Who may see and write an account's own Choreos: its credentials within their patterns and rights.
describe("an account's own Choreos and who reaches them", () => {
  let t: InProcessApp;
  let libraryOnly: TestCredential;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
    libraryOnly = { account: 'acme', name: 'library-reader', secret: `library-reader-${'p'.repeat(24)}` };
    await createAccountStore({ redis: t.redis, keys: t.keys }).putUser('acme', libraryOnly.name, libraryOnly.secret, ['/Library/**'], 'admin');
  });

  afterAll(async () => {
    await t?.close();
  });

  const put = (id: string, document: unknown, credential: TestCredential) => t.call('PUT', `/choreos${id}`, credential, { body: JSON.stringify(document) });

  it("keeps an account's Choreos from every other account (404, never 403), and lets two accounts own the same id", async () => {
    expect((await put('/Shared/Name', greeterDocument('Hello from acme'), t.credentials.alice)).status).toBe(201);
    const bob = t.credentials.bob;
    expect((await t.call('GET', '/choreos/Shared/Name', bob)).status).toBe(404);
    expect((await t.call('POST', '/choreos/Shared/Name', bob, { body: runBody({ Name: 'x' }) })).status).toBe(404);
    expect((await t.call('DELETE', '/choreos/Shared/Name', bob)).status).toBe(404);
    expect((await (await t.call('GET', '/choreos', bob)).json()).resources).not.toContain('/Shared/Name');

    // Bob's own, under the same id: a first version of his, which changes nothing of acme's.
    const bobs = await put('/Shared/Name', greeterDocument('Hello from other'), bob);
    expect(bobs.status).toBe(201);
    expect((await bobs.json()).version).toBe('1');
    expect((await put('/Shared/Name', greeterDocument('Hello again from other'), bob)).status).toBe(200);
    expect((await (await t.call('GET', '/choreos/Shared/Name', t.credentials.alice)).json()).version).toBe('1');
    const run = await (await t.call('POST', '/choreos/Shared/Name?mode=async', t.credentials.alice, { body: runBody({ Name: 'Ann' }) })).json();
    const record = await t.executions.get(run.id);
    const snapshot = JSON.parse((await t.redis.get(t.keys.definition(record?.definitionDigest ?? ''))) ?? '{}');
    expect(snapshot.steps[0].args.text).toBe('Hello from acme, {{inputs.Name}}');
    // Bob's deletion removes his alone.
    expect((await t.call('DELETE', '/choreos/Shared/Name', bob)).status).toBe(204);
    expect((await t.call('GET', '/choreos/Shared/Name', t.credentials.alice)).status).toBe(200);
  });

  it('lets no credential limited to /Library/** write, nor see what its account wrote elsewhere', async () => {
    await put('/Mine/Private', greeterDocument('Hi'), t.credentials.alice);
    const refused = await put('/Mine/Other', greeterDocument('Hi'), libraryOnly);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe('FORBIDDEN');
    expect((await put('/Library/Mine', greeterDocument('Hi'), libraryOnly)).status).toBe(403);
    expect((await t.call('GET', '/choreos/Mine/Private', libraryOnly)).status).toBe(404);
    expect((await t.call('DELETE', '/choreos/Mine/Private', libraryOnly)).status).toBe(404);
    expect((await (await t.call('GET', '/choreos', libraryOnly)).json()).resources).not.toContain('/Mine/Private');
    expect((await t.call('GET', '/choreos/Mine/Other', t.credentials.alice)).status).toBe(404);
  });

  it("lets nobody write or delete the shared catalogue's Choreos", async () => {
    const id = '/Library/Utilities/Encoding/Base64Encode';
    const before = await (await t.call('GET', `/choreos${id}`, t.credentials.alice)).json();
    expect((await put(id, greeterDocument('Hijacked'), t.credentials.alice)).status).toBe(403);
    expect((await put('/Library/Brand/New', greeterDocument('Hi'), t.credentials.alice)).status).toBe(403);
    expect((await t.call('DELETE', `/choreos${id}`, t.credentials.alice)).status).toBe(403);
    expect(await (await t.call('GET', `/choreos${id}`, t.credentials.alice)).json()).toEqual(before);
    expect(await t.redis.hkeys(t.keys.accountChoreos('acme'))).not.toContain(id);
  });

  it('lets applications write only when granted the right', async () => {
    const withoutRight = await put('/Mine/FromApp', greeterDocument('Hi'), t.credentials.acmeApp);
    expect(withoutRight.status).toBe(403);
    expect((await withoutRight.json()).error.message).toContain('"choreos" right');
    expect((await put('/Library/Utilities/Encoding/Mine', greeterDocument('Hi'), t.credentials.encodingApp)).status).toBe(403);
    await put('/Mine/Kept', greeterDocument('Hi'), t.credentials.alice);
    expect((await t.call('DELETE', '/choreos/Mine/Kept', t.credentials.acmeApp)).status).toBe(403);
    expect((await t.call('GET', '/choreos/Mine/Kept', t.credentials.alice)).status).toBe(200);
    // Reading and running need no right.
    expect((await t.call('GET', '/choreos/Mine/Kept', t.credentials.acmeApp)).status).toBe(200);
  });

  it('stores a document as data: what it says is never taken for an instruction to the store', async () => {
    const sneaky = greeterDocument('Hi', { description: '", "version": 99, "document": "{}' });
    expect((await put('/Mine/Sneaky', sneaky, t.credentials.alice)).status).toBe(201);
    const details = await (await t.call('GET', '/choreos/Mine/Sneaky', t.credentials.alice)).json();
    expect(details.version).toBe('1');
  });
});
