import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// Requests as the original service's other SDKs write them (Python, PHP, Ruby, iOS, Java), with
// only what the specification renames: each is answered as they expect.
const ENCODE = '/Library/Utilities/Encoding/Base64Encode';

describe("requests as the original's SDKs write them, in process", () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  /** A request with the given headers only: no defaults of the test's client. */
  const raw = (method: string, path: string, headers: Record<string, string>, body?: string) => {
    const { alice } = t.credentials;
    const auth = `Basic ${Buffer.from(`${alice.name}:${alice.secret}`).toString('base64')}`;
    return t.app.request(`/service-api/1.0${path}`, { method, headers: { authorization: auth, ...headers }, ...(body === undefined ? {} : { body }) });
  };
  const jsonHeaders = { accept: 'application/json', 'content-type': 'application/json' };

  it('Python: Host with its port, the domain without its slash, store_results=True or False, source_id on every request', async () => {
    const headers = { ...jsonHeaders, host: 'acme.choreos.test:443', 'x-service-domain': 'acme/master' };
    const body = JSON.stringify({ inputs: [{ name: 'Text', value: 'py' }] });
    for (const [storeResults, stored] of [
      ['True', true],
      ['False', false],
    ] as const) {
      const res = await raw('POST', `/choreos${ENCODE}?mode=async&store_results=${storeResults}&source_id=PythonSDK_1.76`, headers, body);
      expect(res.status, await res.clone().text()).toBe(202);
      const { id } = await res.json();
      expect(await t.executions.get(id)).toMatchObject({ sourceId: 'PythonSDK_1.76', storeResults: stored });
      // Status and outputs polled with source_id, and the Content-Type of a body that is not there.
      const status = await raw('GET', `/choreo-executions/${id}?source_id=PythonSDK_1.76`, headers);
      expect(status.status).toBe(200);
      expect((await status.json()).execution).toMatchObject({ id, status: 'RUNNING' });
      const outputs = await raw('GET', `/choreo-executions/${id}?view=outputs&source_id=PythonSDK_1.76`, headers);
      expect(await outputs.json()).toMatchObject({ execution: { id }, output: {} });
    }
  });

  it("Python: the host's account must still be the domain header's", async () => {
    const res = await raw('GET', '/choreos', { ...jsonHeaders, host: 'other.choreos.test:443', 'x-service-domain': 'acme/master' });
    expect(res.status).toBe(400);
  });

  it('PHP: the domain with its slash, an empty list of inputs, mode=async&store_results=true', async () => {
    const headers = { ...jsonHeaders, 'x-service-domain': '/acme/master' };
    const res = await raw(
      'POST',
      '/choreos/Library/Utilities/Encoding/Base64Decode?mode=async&store_results=true&source_id=PHPSDK_2.2.0',
      headers,
      '{"inputs":[]}',
    );
    // Base64Decode needs Base64EncodedText: refused before anything runs, with error.message as PHP reads it.
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/Base64EncodedText/);
    const ok = await raw(
      'POST',
      `/choreos${ENCODE}?mode=async&store_results=true&source_id=PHPSDK_2.2.0`,
      headers,
      '{"inputs":[{"name":"Text","value":"php"}]}',
    );
    expect(ok.status).toBe(202);
    expect((await ok.json()).id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('iOS: the domain without its slash, and a preset beside the inputs is never ignored', async () => {
    const headers = { ...jsonHeaders, 'x-service-domain': 'acme/master' };
    const res = await raw(
      'POST',
      `/choreos${ENCODE}?source_id=iOSSDK_1.76`,
      headers,
      JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }], preset: 'keys' }),
    );
    expect(res.status).toBe(404);
    expect((await res.json()).error.message).toBe('preset "keys" does not exist');
  });

  it('Ruby and Java: a 404 and a 401 answered with error.message, JSON first', async () => {
    const headers = { ...jsonHeaders, 'x-service-domain': 'acme/master' };
    const missing = await raw('POST', '/choreos/Library/Utilities/Nothing/Here', headers, '{}');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toMatch(/^\{"error":\{"message":"No such Choreo\.","code":"NOT_FOUND","requestId":"[^"]+"\}\}$/);
    const wrong = await t.app.request('/service-api/1.0/choreos', {
      headers: { ...headers, authorization: `Basic ${Buffer.from('alice:nope').toString('base64')}` },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toMatch(/^\{"error":\{"message":"[^}]+"\}\}$/);
  });
});
