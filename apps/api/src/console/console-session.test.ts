import { createHash } from 'node:crypto';
import { createAccountStore } from '@ces/accounts';
import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { recordRuns } from '../test-support/recorded-runs.ts';
import { startInProcessApp, type InProcessApp } from '../test-support/in-process-app.ts';
import { consoleVisitor as visitor } from '../test-support/console-visitor.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

describe('console sessions', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('sends a signed-out visit to the sign-in form, and back after signing in', async () => {
    const browser = visitor(t);
    const first = await browser.request('/console/runs?status=SUCCESS');
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(`/console/sign-in?next=${encodeURIComponent('/console/runs?status=SUCCESS')}`);
    const form = await browser.request('/console/sign-in?next=%2Fconsole%2Fruns%3Fstatus%3DSUCCESS');
    expect(form.status).toBe(200);
    expect(form.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await form.text();
    for (const label of ['Account', 'Name', 'Password']) expect(html).toMatch(new RegExp(`<label for="[a-z]+">${label}</label>`));
    expect(html).toContain('<button type="submit">Sign in</button>');
    const signedIn = await browser.signIn(t.credentials.alice, '/console/runs?status=SUCCESS');
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/console/runs?status=SUCCESS');
    expect((await browser.request('/console/runs?status=SUCCESS')).status).toBe(200);
  });

  it('sets a Secure, HttpOnly, SameSite=Strict cookie of bounded lifetime, and keeps only its digest', async () => {
    const browser = visitor(t);
    const answer = await browser.signIn(t.credentials.alice);
    const cookie = answer.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43};`));
    expect(cookie).toMatch(/; Max-Age=28800/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).not.toMatch(/Domain=/);
    const token = browser.cookie.slice(SESSION_COOKIE.length + 1);
    const digest = createHash('sha256').update(token).digest('hex');
    expect(await t.redis.exists(t.keys.consoleSession(digest))).toBe(1);
    expect(await t.redis.exists(t.keys.consoleSession(token))).toBe(0);
    const ttl = await t.redis.pttl(t.keys.consoleSession(digest));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(8 * 3600 * 1000);
  });

  it('refuses wrong credentials alike, with no cookie', async () => {
    const browser = visitor(t);
    for (const form of [
      { account: 'acme', name: 'alice', password: 'wrong' },
      { account: 'acme', name: 'nobody', password: 'wrong' },
      { account: '', name: 'alice', password: t.credentials.alice.secret },
    ]) {
      const answer = await browser.request('/console/sign-in', { form });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('set-cookie')).toBeNull();
      expect(await answer.text()).toContain('The account, name or password is not right.');
    }
  });

  it('signs an application in with its key', async () => {
    const browser = visitor(t);
    expect((await browser.signIn(t.credentials.encodingApp)).status).toBe(303);
    expect((await browser.request('/console/runs')).status).toBe(200);
  });

  it('refuses a change without the CSRF token, or from another site, and signs out with it', async () => {
    const browser = visitor(t);
    await browser.signIn(t.credentials.alice);
    const csrf = await browser.csrf();
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await browser.request('/console/sign-out', { form: {} })).status).toBe(403);
    expect((await browser.request('/console/sign-out', { form: { csrf: 'x'.repeat(43) } })).status).toBe(403);
    const crossSite = { origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' };
    expect((await browser.request('/console/sign-out', { form: { csrf }, headers: crossSite })).status).toBe(403);
    expect((await browser.request('/console/runs')).status).toBe(200);
    const out = await browser.request('/console/sign-out', { form: { csrf } });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    // The old cookie no longer opens anything, even if the browser kept it.
    expect((await browser.request('/console/runs')).status).toBe(303);
  });

  it('refuses a cross-site sign-in form', async () => {
    const browser = visitor(t);
    const { alice } = t.credentials;
    const answer = await browser.request('/console/sign-in', {
      form: { account: alice.account, name: alice.name, password: alice.secret },
      headers: { origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' },
    });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('set-cookie')).toBeNull();
  });

  it("answers another account's run 404, and terminates one's own with the token", async () => {
    const [mine, theirs] = await recordRuns(t.executions, Date.UTC(2022, 0, 1), [
      { choreo: '/Library/Utilities/Encoding/Base64Encode' },
      { account: 'other', choreo: '/Library/Utilities/Encoding/Base64Encode' },
    ]);
    const browser = visitor(t);
    await browser.signIn(t.credentials.alice);
    expect((await browser.request(`/console/runs/${theirs}`)).status).toBe(404);
    expect((await browser.request(`/console/runs/${theirs}/live`)).status).toBe(404);
    const page = await browser.request(`/console/runs/${mine}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Terminate');
    const csrf = await browser.csrf();
    expect((await browser.request(`/console/runs/${theirs}/terminate`, { form: { csrf } })).status).toBe(404);
    expect((await browser.request(`/console/runs/${mine}/terminate`, { form: {} })).status).toBe(403);
    expect((await t.executions.summary(mine as string, { withOutputs: false }))?.status).toBe('RUNNING');
    const done = await browser.request(`/console/runs/${mine}/terminate`, { form: { csrf } });
    expect(done.status).toBe(303);
    // Queued, taken by no worker: it ends at once, as DELETE ends it.
    expect((await t.executions.summary(mine as string, { withOutputs: false }))?.status).toBe('TERMINATED_MANUALLY');
  });

  it("keeps operators' pages from account credentials", async () => {
    const browser = visitor(t);
    await browser.signIn(t.credentials.alice);
    expect((await browser.request('/console/workers')).status).toBe(403);
    expect((await browser.request('/console/queues')).status).toBe(403);
  });

  it('redirects a browser at the root to the console; API clients keep their 404', async () => {
    const page = await t.app.request('/', { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/console');
    const api = await t.app.request('/', { headers: { accept: 'application/json' } });
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/json/);
  });

  it('ends the session when its credential is removed', async () => {
    const browser = visitor(t);
    await browser.signIn(t.credentials.acmeApp);
    expect((await browser.request('/console/runs')).status).toBe(200);
    await createAccountStore({ redis: t.redis, keys: t.keys }).revokeCredential('acme', 'app', t.credentials.acmeApp.name);
    await waitFor(async () => (await browser.request('/console/runs')).status === 303, { timeoutMs: 5_000, what: 'the session to stop verifying' });
  });
});

describe('console sign-in throttle', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl'), config: { maxAuthFailuresPerMinute: 2, maxAuthFailuresPerAddressPerMinute: 10 } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('throttles failed sign-ins as it throttles Basic', async () => {
    const browser = visitor(t);
    const wrong = { account: 'acme', name: 'alice', password: 'wrong' };
    expect((await browser.request('/console/sign-in', { form: wrong })).status).toBe(401);
    expect((await browser.request('/console/sign-in', { form: wrong })).status).toBe(401);
    const refused = await browser.request('/console/sign-in', { form: { ...wrong, password: t.credentials.alice.secret } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('set-cookie')).toBeNull();
    // Basic, from the same client and for the same name, is refused as well: one throttle.
    expect((await t.call('GET', '/choreo-executions', t.credentials.alice)).status).toBe(429);
  });
});

describe('console for operators', () => {
  let t: InProcessApp;
  const operator = { account: '', name: 'oncall', secret: 'operator-password-0123456789' };

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
    await createAccountStore({ redis: t.redis, keys: t.keys }).putOperator(operator.name, operator.secret);
  });

  afterAll(async () => {
    await t?.close();
  });

  it("signs an operator in with no account, and shows any account's run without what the account alone sees", async () => {
    const [theirs] = await recordRuns(t.executions, Date.UTC(2022, 1, 1), [
      { account: 'other', choreo: '/Library/Utilities/Encoding/Base64Encode', status: 'ERROR' },
    ]);
    const browser = visitor(t);
    expect((await browser.signIn(operator)).status).toBe(303);
    const list = await (await browser.request('/console/runs?account=other')).text();
    expect(list).toContain(theirs);
    const page = await browser.request(`/console/runs/${theirs}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain('boom');
    expect(html).not.toContain('<h2>Inputs</h2>');
    expect(html).not.toContain('>Terminate<');
    expect((await browser.request('/console/workers')).status).toBe(200);
    expect((await browser.request('/console/queues')).status).toBe(200);
  });

  it('sends the browser back only to a console page of this site', async () => {
    const browser = visitor(t);
    for (const next of ['https://evil.test/console', '//evil.test/console', '/service-api/1.0/choreos', '/console\\@evil.test']) {
      const answer = await browser.request('/console/sign-in', { form: { account: '', name: operator.name, password: operator.secret, next } });
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe('/console/runs');
    }
  });
});
