import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REALM } from './middleware/authenticate.ts';
import { startInProcessApp, type InProcessApp, type TestCredential } from './test-support/in-process-app.ts';
import { must } from '@ces/testing';

// Who may see what, in process: authentication, accounts, scoped credentials, host and HTTPS rules.
const ENCODE = '/choreos/Library/Utilities/Encoding/Base64Encode';
const ECHO = '/choreos/Library/Utilities/Development/Echo';

describe('access rules in process', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  async function runAsync(path: string, credential: TestCredential, value = 'x') {
    const name = path === ECHO ? 'Message' : 'Text';
    const res = await t.call('POST', `${path}?mode=async`, credential, { body: JSON.stringify({ inputs: [{ name, value }] }) });
    expect(res.status).toBe(202);
    return (await res.json()).id as string;
  }

  describe('failed authentication', () => {
    const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

    it('answers every kind of failure with the same 401 and a Basic challenge', async () => {
      const { alice, acmeApp } = t.credentials;
      const attempts: { label: string; headers: Record<string, string> }[] = [
        { label: 'no Authorization', headers: { authorization: '' } },
        { label: 'wrong password', headers: { authorization: basic(`alice:${alice.secret}x`) } },
        { label: 'unknown name', headers: { authorization: basic(`mallory:${alice.secret}`) } },
        { label: 'empty secret', headers: { authorization: basic('alice:') } },
        { label: 'no colon', headers: { authorization: basic('alice') } },
        { label: 'another scheme', headers: { authorization: `Bearer ${alice.secret}` } },
        { label: 'not base64', headers: { authorization: 'Basic !!!***' } },
        { label: 'unknown account', headers: { 'x-service-domain': '/nobody/master' } },
        { label: "another account's credentials", headers: { 'x-service-domain': '/other/master' } },
        { label: "an application's key for a user", headers: { authorization: basic(`alice:${acmeApp.secret}`) } },
      ];
      const bodies = new Set<string>();
      for (const { label, headers } of attempts) {
        const res = await t.call('GET', '/choreos', alice, { headers });
        expect(res.status, label).toBe(401);
        expect(res.headers.get('www-authenticate'), label).toBe(`Basic realm="${REALM}", charset="UTF-8"`);
        const { error } = await res.json();
        expect(error.requestId).toBe(res.headers.get('x-request-id'));
        bodies.add(JSON.stringify({ ...error, requestId: undefined }));
      }
      expect(bodies.size).toBe(1);
      expect(JSON.parse(must([...bodies][0])).code).toBe('UNAUTHORIZED');
    });

    it('still refuses a wrong password right after a right one (only successes are remembered)', async () => {
      const { alice } = t.credentials;
      expect((await t.call('GET', '/choreos', alice)).status).toBe(200);
      expect((await t.call('GET', '/choreos', { ...alice, secret: `${alice.secret}!` })).status).toBe(401);
      expect((await t.call('GET', '/choreos', alice)).status).toBe(200);
    });

    it('answers a missing or malformed domain header with 400', async () => {
      for (const domain of ['', '/acme', 'acme/main', '/ac me/master', '/../master', '/acme/master/extra']) {
        const res = await t.call('GET', '/choreos', t.credentials.alice, { headers: { 'x-service-domain': domain } });
        expect(res.status, domain).toBe(400);
        expect((await res.json()).error.code).toBe('BAD_REQUEST');
      }
    });
  });

  describe('clients that keep failing authentication', () => {
    let throttled: InProcessApp;
    const attacker = '198.51.100.7';

    beforeAll(async () => {
      throttled = await startInProcessApp({ redisUrl: inject('redisUrl'), config: { maxAuthFailuresPerMinute: 3, maxAuthFailuresPerAddressPerMinute: 10 } });
    });

    afterAll(async () => {
      await throttled?.close();
    });

    it('gets 429 with Retry-After once over the limit for a name, for any password of it, without holding back other clients', async () => {
      const { alice } = throttled.credentials;
      const wrong = { ...alice, secret: `${alice.secret}!` };
      // Remembered from now on: a remembered password is still refused once over the limit.
      expect((await throttled.call('GET', '/choreos', alice, { clientAddress: attacker })).status).toBe(200);
      for (let i = 0; i < 3; i += 1) expect((await throttled.call('GET', '/choreos', wrong, { clientAddress: attacker })).status).toBe(401);
      for (const [credential, accept] of [
        [wrong, 'application/json'],
        [alice, 'application/json'],
        [alice, 'application/xml'],
      ] as const) {
        const res = await throttled.call('GET', '/choreos', credential, { clientAddress: attacker, accept });
        expect(res.status).toBe(429);
        const retryAfter = Number(res.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        const body = await res.text();
        if (accept === 'application/xml') expect(body).toContain('<code>TOO_MANY_REQUESTS</code>');
        else
          expect(JSON.parse(body).error).toMatchObject({
            code: 'TOO_MANY_REQUESTS',
            message: 'Too many failed authentications from this client. Retry later.',
          });
      }
      // The same address as IPv4 inside IPv6 is the same client; another client is served.
      expect((await throttled.call('GET', '/choreos', alice, { clientAddress: `::ffff:${attacker}` })).status).toBe(429);
      expect((await throttled.call('GET', '/choreos', alice, { clientAddress: '198.51.100.8' })).status).toBe(200);
      // Another user behind the same address is served: the limit is per name.
      expect((await throttled.call('GET', '/choreos', throttled.credentials.bob, { clientAddress: attacker })).status).toBe(200);
    });

    it('still serves application keys from a client over a limit, which cost no hash and cannot be guessed', async () => {
      const { alice, acmeApp } = throttled.credentials;
      const client = '198.51.100.20';
      for (let i = 0; i < 3; i += 1)
        expect((await throttled.call('GET', '/choreos', { ...alice, secret: 'guess' }, { clientAddress: client })).status).toBe(401);
      expect((await throttled.call('GET', '/choreos', alice, { clientAddress: client })).status).toBe(429);
      expect((await throttled.call('GET', '/choreos', acmeApp, { clientAddress: client })).status).toBe(200);
      // A wrong key or an unknown name is a failure of its own name; a user's password under her name is refused.
      expect((await throttled.call('GET', '/choreos', { ...acmeApp, secret: 'guess' }, { clientAddress: client })).status).toBe(401);
      expect((await throttled.call('GET', '/choreos', { ...acmeApp, name: 'nobody' }, { clientAddress: client })).status).toBe(401);
      expect((await throttled.call('GET', '/choreos', { ...acmeApp, name: alice.name, secret: alice.secret }, { clientAddress: client })).status).toBe(429);
    });

    it('refuses every password from an address past its ceiling, whatever the names, and still serves application keys', async () => {
      const { alice, bob, acmeApp } = throttled.credentials;
      const client = '198.51.100.30';
      // Ten names, one wrong guess each: no name is at its limit, the address is at its ceiling.
      for (let i = 0; i < 10; i += 1)
        expect((await throttled.call('GET', '/choreos', { ...alice, name: `user-${i}`, secret: 'guess' }, { clientAddress: client })).status).toBe(401);
      for (const credential of [alice, bob, { ...alice, name: 'user-10', secret: 'guess' }]) {
        const res = await throttled.call('GET', '/choreos', credential, { clientAddress: client });
        expect(res.status, credential.name).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect((await throttled.call('GET', '/choreos', acmeApp, { clientAddress: client })).status).toBe(200);
      expect((await throttled.call('GET', '/choreos', alice, { clientAddress: '198.51.100.31' })).status).toBe(200);
    });

    it('counts guesses still being checked, so a burst in parallel gets no more than the limit', async () => {
      const { alice } = throttled.credentials;
      const burst = await Promise.all(
        Array.from({ length: 12 }, () => throttled.call('GET', '/choreos', { ...alice, secret: 'guess' }, { clientAddress: '203.0.113.50' })),
      );
      const statuses = burst.map((res) => res.status).sort();
      expect(statuses.filter((status) => status === 401)).toHaveLength(3);
      expect(statuses.filter((status) => status === 429)).toHaveLength(9);
    });

    it('tries no more guesses than the limit against a remembered password, however many come at once', async () => {
      const { alice } = throttled.credentials;
      const client = '203.0.113.80';
      expect((await throttled.call('GET', '/choreos', alice, { clientAddress: client })).status).toBe(200);
      const guesses = Array.from({ length: 40 }, (_, i) => (i === 29 ? alice : { ...alice, secret: `guess-${i}` }));
      const answers = await Promise.all(guesses.map((credential) => throttled.call('GET', '/choreos', credential, { clientAddress: client })));
      expect(answers.filter((res) => res.status === 401)).toHaveLength(3);
      expect(must(answers[29]).status).toBe(429);
      expect(answers.every((res) => res.status === 401 || res.status === 429)).toBe(true);
    });

    it('serves an honest burst of parallel requests whose password is not remembered yet', async () => {
      const burst = await Promise.all(
        Array.from({ length: 30 }, () => throttled.call('GET', '/choreos', throttled.credentials.bob, { clientAddress: '203.0.113.70' })),
      );
      expect(burst.map((res) => res.status)).toEqual(new Array(30).fill(200));
    });

    it('never counts successful requests', async () => {
      const { alice } = throttled.credentials;
      for (let i = 0; i < 10; i += 1) expect((await throttled.call('GET', '/choreos', alice, { clientAddress: '203.0.113.60' })).status).toBe(200);
      expect((await throttled.call('GET', '/choreos', { ...alice, secret: 'guess' }, { clientAddress: '203.0.113.60' })).status).toBe(401);
    });
  });

  describe('accounts', () => {
    it("hides another account's executions: status, list and terminate", async () => {
      const id = await runAsync(ENCODE, t.credentials.alice);
      const { bob } = t.credentials;
      expect((await t.call('GET', `/choreo-executions/${id}`, bob)).status).toBe(404);
      expect((await t.call('GET', `/choreo-executions/${id}?view=outputs`, bob)).status).toBe(404);
      const deleted = await t.call('DELETE', `/choreo-executions/${id}`, bob);
      expect(deleted.status).toBe(404);
      expect((await deleted.json()).error.message).toBe('No such execution.');
      expect((await t.executions.get(id))?.status).toBe('RUNNING');
      expect((await t.executions.get(id))?.terminationRequested).toBe(false);
      const { executions } = await (await t.call('GET', '/choreo-executions', bob)).json();
      expect(executions.map((e: { id: string }) => e.id)).not.toContain(id);

      const unknown = await t.call('GET', '/choreo-executions/0123456789abcdef0123456789abcdef', bob);
      expect(await unknown.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'No such execution.' } });
    });
  });

  describe('credentials limited to Choreo patterns', () => {
    it('lists, shows and runs only the Choreos the credential may access', async () => {
      const { encodingApp } = t.credentials;
      const { resources } = await (await t.call('GET', '/choreos', encodingApp)).json();
      expect(resources.length).toBeGreaterThan(0);
      expect(resources.every((id: string) => id.startsWith('/Library/Utilities/Encoding/'))).toBe(true);
      expect((await t.call('GET', ENCODE, encodingApp)).status).toBe(200);
      expect((await t.call('GET', ECHO, encodingApp)).status).toBe(404);
      const before = await t.executions.countRunning('acme');
      const run = await t.call('POST', `${ECHO}?mode=async`, encodingApp, { body: '{"inputs": [{"name": "Message", "value": "x"}]}' });
      expect(run.status).toBe(404);
      expect(await t.executions.countRunning('acme')).toBe(before);
    });

    it('sees only executions of Choreos it may access, in its own account', async () => {
      const { encodingApp, alice } = t.credentials;
      const echo = await runAsync(ECHO, alice);
      const encode = await runAsync(ENCODE, encodingApp);
      expect((await t.call('GET', `/choreo-executions/${echo}`, encodingApp)).status).toBe(404);
      expect((await t.call('DELETE', `/choreo-executions/${echo}`, encodingApp)).status).toBe(404);
      expect((await t.executions.get(echo))?.status).toBe('RUNNING');
      const listed = (await (await t.call('GET', '/choreo-executions', encodingApp)).json()).executions.map((e: { id: string }) => e.id);
      expect(listed).toContain(encode);
      expect(listed).not.toContain(echo);
      // A user of the same account with every Choreo sees the application's run.
      expect((await t.call('GET', `/choreo-executions/${encode}`, alice)).status).toBe(200);
    });
  });

  describe('host and domain header', () => {
    it.each([
      ['acme.choreos.test', 200],
      ['ACME.Choreos.Test:8443', 200],
      ['other.choreos.test', 400],
      ['x.acme.choreos.test', 400],
      ['127.0.0.1:8443', 200],
      ['choreos.test', 200],
      ['lb.internal', 200],
    ])('Host %s answers %i', async (host, status) => {
      const res = await t.call('GET', '/choreos', t.credentials.alice, { headers: { host } });
      expect(res.status).toBe(status);
      if (status === 400) expect((await res.json()).error.message).toMatch(/host/i);
    });
  });

  describe('behind a TLS-terminating proxy', () => {
    let proxied: InProcessApp;

    beforeAll(async () => {
      proxied = await startInProcessApp({ redisUrl: inject('redisUrl'), config: { trustProxy: true } });
    });

    afterAll(async () => {
      await proxied?.close();
    });

    it.each([
      [undefined, 403],
      ['http', 403],
      ['http, https', 403],
      ['ftp', 403],
      ['https', 200],
      ['HTTPS', 200],
      ['https, http', 200],
    ])('X-Forwarded-Proto %s answers %i', async (proto, status) => {
      const res = await proxied.call('GET', '/choreos', proxied.credentials.alice, { headers: proto ? { 'x-forwarded-proto': proto } : {} });
      expect(res.status).toBe(status);
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
      if (status === 403) expect((await res.json()).error.code).toBe('FORBIDDEN');
    });

    it("refuses before authenticating, on every path but the balancer's probes", async () => {
      expect((await proxied.call('GET', '/choreos', undefined)).status).toBe(403);
      for (const path of ['/service-api/1.0/nothing-here', '/nothing-here', '/ops/workers']) {
        const res = await proxied.app.request(path);
        expect(res.status, path).toBe(403);
        expect((await res.json()).error.code, path).toBe('FORBIDDEN');
      }
      expect((await proxied.app.request('/healthz')).status).toBe(200);
      expect((await proxied.app.request('/readyz')).status).toBe(200);
      expect((await proxied.app.request('/nothing-here', { headers: { 'x-forwarded-proto': 'https' } })).status).toBe(404);
    });
  });
});
