import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BASE_PATH } from './base-path.ts';
import { interfacePath } from './interface-path.ts';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// The empty path segments the original's clients produce: answered as the single-slash form, and nothing more.
const ENCODE = '/Library/Utilities/Encoding/Base64Encode';

describe('interfacePath', () => {
  it.each([
    [`${BASE_PATH}/choreos/${ENCODE}`, `${BASE_PATH}/choreos${ENCODE}`],
    [`${BASE_PATH}/choreos///${ENCODE}`, `${BASE_PATH}/choreos${ENCODE}`],
    [`${BASE_PATH}//choreos/${ENCODE}`, `${BASE_PATH}/choreos${ENCODE}`],
    [`${BASE_PATH}//choreos`, `${BASE_PATH}/choreos`],
    [`${BASE_PATH}/choreo-executions//0123`, `${BASE_PATH}/choreo-executions/0123`],
    [`${BASE_PATH}//choreo-executions`, `${BASE_PATH}/choreo-executions`],
  ])('reads %s as %s', (path, routed) => {
    expect(interfacePath(path)).toBe(routed);
  });

  it.each([
    `${BASE_PATH}/choreos${ENCODE}`,
    `${BASE_PATH}/choreos`,
    // Inside an id, an empty segment is no join: the id is refused as it was.
    `${BASE_PATH}/choreos/Library//Utilities/Encoding/Base64Encode`,
    `${BASE_PATH}/choreos/Library/Utilities/Encoding/Base64Encode/`,
    `${BASE_PATH}/choreos/`,
    `${BASE_PATH}/choreos//`,
    `${BASE_PATH}/choreosX//Library`,
    `//service-api/1.0/choreos/x`,
    `${BASE_PATH}x//choreos/x`,
    '/ops//workers',
    '/healthz',
  ])('leaves %s as it is', (path) => {
    expect(interfacePath(path)).toBe(path);
  });
});

describe('empty segments at the joins, in process', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  it("answers the details at choreos//<location> as at choreos/<location>, as the original's Node SDK asks", async () => {
    const single = await t.call('GET', `/choreos${ENCODE}`, t.credentials.alice);
    const doubled = await t.call('GET', `/choreos/${ENCODE}`, t.credentials.alice);
    expect(doubled.status).toBe(200);
    expect(await doubled.text()).toBe(await single.text());
    const xml = await t.call('GET', `//choreos//${ENCODE}`, t.credentials.alice, { accept: 'application/xml' });
    expect(xml.status).toBe(200);
    expect(await xml.text()).toContain('<name>Base64EncodedText</name>');
  });

  it('runs at choreos//<location>, and its execution reads at choreo-executions//<id>', async () => {
    const res = await t.call('POST', `/choreos/${ENCODE}?mode=async`, t.credentials.alice, {
      body: JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] }),
    });
    expect(res.status, await res.clone().text()).toBe(202);
    const { id, execution } = await res.json();
    expect(execution.choreo).toBe(ENCODE);
    const status = await t.call('GET', `/choreo-executions//${id}`, t.credentials.alice);
    expect(status.status).toBe(200);
    expect((await status.json()).execution).toMatchObject({ id, choreo: ENCODE, status: 'RUNNING' });
    // The list answers at its doubled form too.
    const list = await (await t.call('GET', '//choreo-executions', t.credentials.alice)).json();
    expect(list.executions.map((e: { id: string }) => e.id)).toContain(id);
    expect((await t.call('DELETE', `/choreo-executions//${id}`, t.credentials.alice)).status).toBe(204);
  });

  it('keeps a Choreo out of reach of a credential limited to others, whatever the slashes', async () => {
    for (const path of ['/choreos//Library/Utilities/Development/Echo', '//choreos//Library/Utilities/Development/Echo']) {
      const res = await t.call('GET', path, t.credentials.encodingApp);
      expect(res.status, path).toBe(404);
      expect((await res.json()).error.message).toBe('No such Choreo.');
    }
    expect((await t.call('GET', `/choreos/${ENCODE}`, t.credentials.encodingApp)).status).toBe(200);
  });

  it.each([
    `/choreos//Library//Utilities/Encoding/Base64Encode`,
    `/choreos//Library/Utilities/Encoding/Base64Encode/`,
    '/choreos//Library%2FUtilities%2FEncoding%2FBase64Encode',
    '/choreos//%2e%2e/%2e%2e/package',
    '/choreos//..%2f..%2fpackage',
    '/choreos//Library/Utilities/Encoding/Base64Encode%00',
    '/choreo-executions//..%2fchoreos',
    '/choreo-executions//a//b',
  ])('answers %s with 404, as its single-slash form', async (path) => {
    for (const method of ['GET', 'POST']) {
      const res = await t.call(method, path, t.credentials.alice, method === 'POST' ? { body: '{}' } : {});
      // 405 for POST on an execution path: a known path with another method, as before.
      expect([404, 405], `${method} ${path}`).toContain(res.status);
      expect((await res.json()).error.message).toEqual(expect.any(String));
    }
  });
});
