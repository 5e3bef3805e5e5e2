import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureSelfSignedCertificate, findFreePort } from '@ces/local-runtime';
import { waitFor, must } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { headerLength, rawHttpsRequest, rawRequest } from '../support/raw-https.ts';
import { ServiceProcess } from '../support/service-process.ts';
import { CATALOGUE_DIR, startStack, type Credential, type Stack } from '../support/stack.ts';

// Access rules and hostile input over real HTTPS. No worker: runs stay RUNNING in the queue,
// which is all that visibility needs, and keeps this file light.
const ENCODE = '/choreos/Library/Utilities/Encoding/Base64Encode';
const ECHO = '/choreos/Library/Utilities/Development/Echo';

describe('security and bad input end to end', () => {
  let stack: Stack;
  let ca: string;

  beforeAll(async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 0 });
    ca = readFileSync((await ensureSelfSignedCertificate(stack.dataDir)).certFile, 'utf8');
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const authHeaders = (credential: Credential) => ({
    Authorization: `Basic ${Buffer.from(`${credential.name}:${credential.secret}`).toString('base64')}`,
    'x-service-domain': `/${credential.account}/master`,
    Accept: 'application/json',
  });

  async function runAsync(path: string, credential: Credential, name: string): Promise<string> {
    const res = await stack.call('POST', `${path}?mode=async`, credential, { body: JSON.stringify({ inputs: [{ name, value: 'x' }] }) });
    expect(res.status, res.text).toBe(202);
    return res.json().id;
  }

  async function stillServes() {
    const res = await stack.call('GET', '/choreos', stack.credentials.alice);
    expect(res.status).toBe(200);
    expect(stack.api.running).toBe(true);
  }

  describe('access', () => {
    it("hides one account's executions from another: status, list and terminate answer as if absent", async () => {
      const id = await runAsync(ENCODE, stack.credentials.alice, 'Text');
      const { bob } = stack.credentials;
      for (const [method, query] of [
        ['GET', ''],
        ['GET', '?view=outputs'],
        ['DELETE', ''],
      ] as const) {
        const res = await stack.call(method, `/choreo-executions/${id}${query}`, bob);
        expect(res.status, `${method}${query}`).toBe(404);
        expect(res.json().error).toMatchObject({ code: 'NOT_FOUND', message: 'No such execution.' });
      }
      expect(bob && (await stack.call('GET', '/choreo-executions', bob)).json().executions).toEqual([]);
      expect((await stack.call('GET', `/choreo-executions/${id}`, stack.credentials.alice)).json().execution.status).toBe('RUNNING');
    });

    it('limits a scoped application to its Choreos and their executions', async () => {
      const { encodingApp, alice } = stack.credentials;
      const { resources } = (await stack.call('GET', '/choreos', encodingApp)).json();
      expect(resources.length).toBeGreaterThan(0);
      expect(resources.filter((id: string) => !id.startsWith('/Library/Utilities/Encoding/'))).toEqual([]);
      expect((await stack.call('GET', ECHO, encodingApp)).status).toBe(404);
      expect((await stack.call('POST', `${ECHO}?mode=async`, encodingApp, { body: '{"inputs":[{"name":"Message","value":"x"}]}' })).status).toBe(404);

      const echo = await runAsync(ECHO, alice, 'Message');
      const encode = await runAsync(ENCODE, encodingApp, 'Text');
      expect((await stack.call('GET', `/choreo-executions/${echo}`, encodingApp)).status).toBe(404);
      expect((await stack.call('DELETE', `/choreo-executions/${echo}`, encodingApp)).status).toBe(404);
      const listed = (await stack.call('GET', '/choreo-executions', encodingApp)).json().executions.map((e: { id: string }) => e.id);
      expect(listed).toContain(encode);
      expect(listed).not.toContain(echo);
      expect((await stack.call('GET', `/choreo-executions/${echo}`, alice)).json().execution.status).toBe('RUNNING');
    });

    it('answers wrong and missing credentials alike: 401 with a Basic challenge', async () => {
      const { alice } = stack.credentials;
      const answers = [
        await stack.call('GET', '/choreos', { ...alice, secret: 'wrong-password-123' }),
        await stack.call('GET', '/choreos', { ...alice, name: 'nobody-here' }),
        await stack.call('GET', '/choreos', { ...alice, account: 'no-such-account' }),
        await stack.http.request('GET', '/service-api/1.0/choreos', { headers: { 'x-service-domain': '/acme/master' } }),
      ];
      for (const res of answers) {
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Basic realm="Choreo Execution Service", charset="UTF-8"');
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
      }
      const bodies = new Set(answers.map((res) => JSON.stringify({ ...res.json().error, requestId: undefined })));
      expect(bodies.size).toBe(1);
    });

    it('answers 400 when the host names another account than the domain header', async () => {
      const { alice } = stack.credentials;
      const mismatch = await stack.call('GET', '/choreos', alice, { headers: { host: 'other.choreos.test' } });
      expect(mismatch.status).toBe(400);
      expect(mismatch.json().error.code).toBe('BAD_REQUEST');
      expect((await stack.call('GET', '/choreos', alice, { headers: { host: `acme.choreos.test:${stack.port}` } })).status).toBe(200);
      expect((await stack.call('GET', '/choreos', alice, { headers: { 'x-service-domain': 'acme/master' } })).status).toBe(200);
    });
  });

  describe('one client guessing one password, behind an address others share', () => {
    // An API process of its own, with the default limits: its throttle is its own, so the
    // other tests' clients (all on 127.0.0.1) are not refused for what this one does.
    let via: number;

    beforeAll(async () => {
      via = await stack.addApi();
    });

    it('30 wrong passwords for one name leave another user, an application key and an operator served', async () => {
      const { alice, bob, acmeApp, operator } = stack.credentials;
      const statuses: number[] = [];
      for (let i = 0; i < 30; i += 1) statuses.push((await stack.call('GET', '/choreos', { ...alice, secret: `guess-${i}` }, { via })).status);
      // The default limit, MAX_AUTH_FAILURES_PER_MINUTE=20 per client and name: then 429, and no more hashing.
      expect(statuses).toEqual([...Array<number>(20).fill(401), ...Array<number>(10).fill(429)]);
      expect((await stack.call('GET', '/choreos', alice, { via })).status).toBe(429);

      expect((await stack.call('GET', '/choreos', bob, { via })).status).toBe(200);
      expect((await stack.call('GET', '/choreos', acmeApp, { via })).status).toBe(200);
      const api = stack.apis[via];
      if (!api) throw new Error('the added API is missing');
      const operatorAuthorization = `Basic ${Buffer.from(`${operator.name}:${operator.secret}`).toString('base64')}`;
      const scrape = await api.http.request('GET', '/metrics', { headers: { authorization: operatorAuthorization } });
      expect(scrape.status).toBe(200);
      expect(scrape.text).toMatch(/^ces_requests_refused_total\{limit="auth-failures",service="api"\} 11$/m);
      // A run starts for the other user as well, not only a list.
      const run = await stack.call('POST', `${ENCODE}?mode=async`, bob, { body: JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] }), via });
      expect(run.status, run.text).toBe(202);
    });
  });

  describe('TRUST_PROXY', () => {
    let proxied: ServiceProcess;
    let port: number;

    beforeAll(async () => {
      port = await findFreePort();
      proxied = new ServiceProcess('api-behind-proxy', 'api', {
        REDIS_URL: inject('redisUrl'),
        REDIS_PREFIX: stack.prefix,
        ACCOUNTS_FILE: join(stack.dataDir, 'accounts.json'),
        DATA_DIR: stack.dataDir,
        CHOREOS_DIR: CATALOGUE_DIR,
        SERVICE_HOST: 'choreos.test',
        TRUST_PROXY: 'true',
        MAX_AUTH_FAILURES_PER_MINUTE: '3',
        MAX_AUTH_FAILURES_PER_ADDRESS_PER_MINUTE: '5',
        PORT: String(port),
        BIND_ADDRESS: '127.0.0.1',
      });
      await waitFor(async () => (await plainGet('/healthz', {})).status === 200, { timeoutMs: 30_000, intervalMs: 100, what: 'the proxied API' });
    });

    afterAll(async () => {
      await proxied?.stop();
    });

    const viaProxy = (client: string, headers: Record<string, string>) => ({ ...headers, 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': client });

    function plainGet(path: string, headers: Record<string, string>): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
      return new Promise((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
        });
        req.on('error', reject);
        req.end();
      });
    }

    it('serves plain HTTP only to requests the proxy says came over HTTPS', async () => {
      const headers = authHeaders(stack.credentials.alice);
      const refused = await plainGet('/service-api/1.0/choreos', headers);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body).error.code).toBe('FORBIDDEN');
      expect((await plainGet('/service-api/1.0/choreos', { ...headers, 'X-Forwarded-Proto': 'http' })).status).toBe(403);
      const served = await plainGet('/service-api/1.0/choreos', { ...headers, 'X-Forwarded-Proto': 'https' });
      expect(served.status).toBe(200);
      expect(served.headers['strict-transport-security']).toBe('max-age=31536000');
      // The operators' endpoints too; only the balancer's probes answer without the header.
      expect((await plainGet('/metrics', {})).status).toBe(403);
      expect((await plainGet('/readyz', {})).status).toBe(200);
    });

    it('throttles each client by the address the proxy saw, per name and in all, on the interface and the operator endpoints', async () => {
      const { alice, operator } = stack.credentials;
      const basic = (name: string, secret: string) => ({ Authorization: `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}` });
      const wrongAlice = authHeaders({ ...alice, secret: 'not-her-password' });
      for (let i = 0; i < 3; i += 1) expect((await plainGet('/service-api/1.0/choreos', viaProxy('198.51.100.7', wrongAlice))).status).toBe(401);
      // Over the limit for her name even the right password is refused; what the client prepends does not change who it is.
      for (const client of ['198.51.100.7', '203.0.113.1, 198.51.100.7']) {
        const refused = await plainGet('/service-api/1.0/choreos', viaProxy(client, authHeaders(alice)));
        expect(refused.status).toBe(429);
        expect(JSON.parse(refused.body).error.code).toBe('TOO_MANY_REQUESTS');
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      }
      // The operator behind the same address is still served: another name.
      expect((await plainGet('/metrics', viaProxy('198.51.100.7', basic(operator.name, operator.secret)))).status).toBe(200);
      // Failures on the operator endpoints count for the address too: five in all, its ceiling.
      for (let i = 0; i < 2; i += 1) expect((await plainGet('/metrics', viaProxy('198.51.100.7', basic(operator.name, 'wrong')))).status).toBe(401);
      expect((await plainGet('/metrics', viaProxy('198.51.100.7', basic(operator.name, operator.secret)))).status).toBe(429);
      expect((await plainGet('/service-api/1.0/choreos', viaProxy('198.51.100.7', authHeaders(stack.credentials.bob)))).status).toBe(429);
      // A program with an application key costs no hash, and is still served.
      expect((await plainGet('/service-api/1.0/choreos', viaProxy('198.51.100.7', authHeaders(stack.credentials.acmeApp)))).status).toBe(200);
      // Another client behind the same proxy is served.
      expect((await plainGet('/service-api/1.0/choreos', viaProxy('198.51.100.8', authHeaders(alice)))).status).toBe(200);
      // Operators see the refusals.
      const scrape = await plainGet(
        '/metrics',
        viaProxy('198.51.100.9', { Authorization: `Basic ${Buffer.from(`${operator.name}:${operator.secret}`).toString('base64')}` }),
      );
      expect(scrape.status).toBe(200);
      expect(scrape.body).toMatch(/^ces_requests_refused_total\{limit="auth-failures",service="api"\} [3-9]/m);
    });

    it("counts an account's password on the operator endpoints like a failure, since it costs hashes; not a key", async () => {
      const client = '198.51.100.40';
      for (let i = 0; i < 5; i += 1) {
        expect((await plainGet('/metrics', viaProxy(client, authHeaders(stack.credentials.acmeApp)))).status).toBe(403);
      }
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await plainGet('/metrics', viaProxy(client, authHeaders(stack.credentials.alice)))).status);
      // Each costs up to two hashes (the operator's check, then the account's): the second uses up three.
      expect(statuses).toEqual([403, 403, 429]);
    });
  });

  describe('bad input corpus', () => {
    const send = (
      target: string,
      headers: Record<string, string> = authHeaders(stack.credentials.alice),
      method = 'GET',
      body = '',
      pauseAfterBytes?: number,
    ) => rawHttpsRequest(stack.port, ca, rawRequest(method, target, headers, body), { ...(pauseAfterBytes ? { pauseAfterBytes } : {}) });

    it.each([
      '/service-api/1.0/choreos/../x',
      '/service-api/1.0/choreos/../../../../etc/passwd',
      '/service-api/1.0/choreos/%2e%2e/%2e%2e/x',
      '/service-api/1.0/choreos/%2E%2E%2F%2E%2E%2Fpackage',
      '/service-api/1.0/choreos/Library%2FUtilities%2FEncoding%2FBase64Encode',
      '/service-api/1.0/choreos/Library/Utilities/Encoding/Base64Encode%00.json',
      '/service-api/1.0/choreos/Library/Utilities/Encoding/%ff%fe',
      '/service-api/1.0/choreos/Library//Utilities/Encoding/Base64Encode',
      '/service-api/1.0/choreos/%F0%9F%92%A3/%E2%80%AE',
      '/service-api/1.0/choreo-executions/..%2f..%2fchoreos',
      `/service-api/1.0/choreo-executions/${'f'.repeat(4000)}`,
      `/service-api/1.0/choreos/${'a/'.repeat(3000)}b`,
      '/service-api/1.0/choreos/x?view=%00%0d%0a',
      '//service-api/1.0/choreos/x',
      '/service-api/1.0/./choreos/%2e/x',
    ])('answers GET %s with a 4xx', async (target) => {
      const res = await send(target);
      expect(res.status, res.body).toBeGreaterThanOrEqual(400);
      expect(res.status, res.body).toBeLessThan(500);
    });

    it('never lets a path climb out of the interface', async () => {
      // `/service-api/1.0/choreos/..` normalises to the base path itself, which is not an endpoint.
      for (const target of ['/service-api/1.0/choreos/../choreos', '/service-api/1.0/choreo-executions/%2e%2e']) {
        const res = await send(target);
        expect([200, 404]).toContain(res.status);
        if (res.status === 200) expect(JSON.parse(res.body).resources).toBeDefined();
      }
      await stillServes();
    });

    it('answers a URL longer than the server accepts with a 4xx', async () => {
      const res = await send(`/service-api/1.0/choreos/${'x'.repeat(17_000)}`);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      await stillServes();
    });

    it('answers headers with control characters or odd bytes with a 4xx', async () => {
      const auth = authHeaders(stack.credentials.alice);
      const requests = [
        rawRequest('GET', '/service-api/1.0/choreos', { ...auth, 'x-service-domain': '/acme\u0001/master' }),
        rawRequest('GET', '/service-api/1.0/choreos', { ...auth, 'x-service-domain': '/acme/master\u0000' }),
        rawRequest('GET', '/service-api/1.0/choreos', { ...auth, Authorization: 'Basic \u00ff\u00fe' }),
        rawRequest('GET', '/service-api/1.0/choreos', { ...auth, Accept: 'application/json\u0007' }),
        rawRequest('GET', '/service-api/1.0/choreos', { ...auth, 'X-Request-Id': 'a\u0000b' }),
        `GET /service-api/1.0/choreos HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nBroken header line\r\n\r\n`,
        `GET /service-api/1.0/cho reos HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      ];
      for (const request of requests) {
        const res = await rawHttpsRequest(stack.port, ca, Buffer.from(request, 'latin1'));
        expect(res.status, JSON.stringify(request)).toBeGreaterThanOrEqual(400);
        expect(res.status, JSON.stringify(request)).toBeLessThan(500);
      }
      await stillServes();
    });

    it.each([
      ['truncated JSON', 'application/json', '{"inputs": [{"name": "Text", "value": "x'],
      ['JSON with a NUL byte', 'application/json', '{"inputs": [{"name": "Text", "value": "x"}]\u0000}'],
      ['invalid UTF-8', 'application/json', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
      ['a deeply nested JSON', 'application/json', `{"inputs": ${'['.repeat(200_000)}${']'.repeat(200_000)}}`],
      ['a lone surrogate name', 'application/json', '{"inputs": [{"name": "\\ud800", "value": 1}, {"name": "\\ud800", "value": 2}]}'],
      ['truncated XML', 'application/xml', '<inputs><input><name>Text</name><value>x'],
      [
        'an XML entity bomb',
        'application/xml',
        `<?xml version="1.0"?><!DOCTYPE b [<!ENTITY a "${'a'.repeat(1000)}"><!ENTITY b "${'&a;'.repeat(1000)}">]><inputs><input><name>Text</name><value>&b;</value></input></inputs>`,
      ],
      [
        'an external XML entity',
        'application/xml',
        '<?xml version="1.0"?><!DOCTYPE i [<!ENTITY x SYSTEM "file:///etc/passwd">]><inputs><input><name>Text</name><value>&x;</value></input></inputs>',
      ],
      ['XML with a control character', 'application/xml', '<inputs><input><name>Te\u0001xt</name><value>x</value></input></inputs>'],
      ['XML nested deep', 'application/xml', `<inputs>${'<i>'.repeat(5000)}${'</i>'.repeat(5000)}</inputs>`],
      ['a form body', 'application/x-www-form-urlencoded', 'Text=x'],
    ])('answers a run with %s with a 4xx', async (_label, contentType, body) => {
      const res = await stack.call('POST', ENCODE, stack.credentials.alice, { body, headers: { 'content-type': contentType } });
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      expect(res.status, res.text).toBeLessThan(500);
    });

    it('takes odd Unicode in values as it is, and returns it intact', async () => {
      const value = 'e\u0301 \u202e RTL \u{1F600} \u0000 \uFEFF \u00A0 \u2028 end';
      const res = await stack.call('POST', `${ENCODE}?mode=async`, stack.credentials.alice, { body: JSON.stringify({ inputs: [{ name: 'Text', value }] }) });
      expect(res.status).toBe(202);
      expect(JSON.parse(must(await stack.redis.hget(`${stack.prefix}:exec:${res.json().id}`, 'inputs')))).toEqual({ Text: value, URL: '' });
      const xmlStatus = await stack.call('GET', `/choreo-executions/${res.json().id}`, stack.credentials.alice, { accept: 'application/xml' });
      expect(xmlStatus.status).toBe(200);
    });

    it('answers 10 MB bodies with 413, with and without Content-Length, and keeps serving', async () => {
      const big = `{"inputs": [{"name": "Text", "value": "${'x'.repeat(10 * 1024 * 1024)}"}]}`;
      const auth = authHeaders(stack.credentials.alice);
      // Declared too large: the headers alone must be enough to refuse it, so no body is sent first.
      const declaredRequest = rawRequest('POST', `/service-api/1.0${ENCODE}`, { ...auth, 'Content-Type': 'application/json' }, big);
      const declared = await rawHttpsRequest(stack.port, ca, declaredRequest, { pauseAfterBytes: headerLength(declaredRequest) });
      expect(declared.status).toBe(413);
      expect(JSON.parse(declared.body).error.code).toBe('PAYLOAD_TOO_LARGE');

      const chunk = 'x'.repeat(1024 * 1024);
      let chunked = `POST /service-api/1.0${ENCODE} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n`;
      for (const [name, value] of Object.entries(auth)) chunked += `${name}: ${value}\r\n`;
      chunked += '\r\n';
      for (let i = 0; i < 10; i += 1) chunked += `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
      chunked += '0\r\n\r\n';
      // Streamed: the server must read past the limit to know. It then closes with the rest of the
      // body unread, and the kernel may reset the connection before the client reads the answer,
      // so the access log is the witness when the answer itself is lost.
      const refusals = () => stack.api.logs().match(/"status":413[^\n]*"msg":"request"/g)?.length ?? 0;
      const refusedBefore = refusals();
      const streamedStatus = await rawHttpsRequest(stack.port, ca, chunked, { pauseAfterBytes: 2 * 1024 * 1024 }).then(
        (response) => response.status,
        async (error: NodeJS.ErrnoException) => {
          expect(['EPIPE', 'ECONNRESET']).toContain(error.code);
          return waitFor(() => (refusals() > refusedBefore ? 413 : undefined), { what: 'a new 413 in the access log' });
        },
      );
      expect(streamedStatus).toBe(413);
      await stillServes();
    });

    it('is still healthy after the whole corpus', async () => {
      await stillServes();
      expect((await stack.http.request('GET', '/readyz')).status).toBe(200);
      expect(stack.api.logs()).not.toMatch(/"level":"(error|fatal)"/);
    });
  });
});
