import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { waitFor } from '@ces/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isLocal, launchLocalBrowser, type LocalBrowser } from '../support/local-browser.ts';
import { startStack, type Credential, type Stack } from '../support/stack.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

const FAIL = '/Library/Utilities/Development/Fail';
const ECHO = '/Library/Utilities/Development/Echo';
const HMAC = '/Library/Utilities/Hashing/HMAC';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical findings on the page as it is now. */
async function seriousFindings(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: () => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

// The console's redrive, schedules and webhooks pages in headless Chromium, against a real API,
// worker and Redis over HTTPS, the worker delivering webhooks to a local HTTPS receiver it trusts.
describe('the console’s redrive, schedules and webhooks in a real browser', { timeout: 90_000 }, () => {
  const receiver = new WebhookReceiver();
  let stack: Stack;
  let browser: LocalBrowser;
  let context: BrowserContext;
  let requested: string[] = [];
  let refusedByPolicy: string[] = [];
  const base = () => `https://127.0.0.1:${stack.port}`;

  beforeAll(async () => {
    await receiver.start();
    stack = await startStack({
      redisUrl: inject('redisUrl'),
      workers: 1,
      workerEnv: { NODE_EXTRA_CA_CERTS: receiver.certFile, WEBHOOK_RETRY_INITIAL_MS: '1500', WEBHOOK_DISPATCH_POLL_MS: '20' },
    });
    browser = await launchLocalBrowser();
    ({ context, requested, refusedByPolicy } = await browser.watchedContext());
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await receiver.close();
  });

  async function signIn(page: Page, credential: Credential, path: string) {
    await page.context().clearCookies();
    await page.goto(`${base()}${path}`);
    await page.getByLabel('Account').fill(credential.account);
    await page.getByLabel('Name').fill(credential.name);
    await page.getByLabel('Password').fill(credential.secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === path.split('?')[0]);
  }

  /** A form post from another site, with the page's own token even: refused by where it comes from. */
  async function crossSitePost(path: string, form: Record<string, string>) {
    const answer = await context.request.post(`${base()}${path}`, {
      form,
      headers: { origin: 'https://elsewhere.test', 'sec-fetch-site': 'cross-site' },
      maxRedirects: 0,
    });
    return answer.status();
  }

  it('redrives a failed run from its page, after a confirmation, and the new run names the old', async () => {
    const { alice } = stack.credentials;
    const failed = await stack.startRun(FAIL, alice, { Message: 'fails in the console test' });
    expect((await stack.waitForEnd(failed, alice)).status).toBe('ERROR');
    const page = await context.newPage();
    await signIn(page, alice, `/console/runs/${failed}`);
    await page.getByRole('button', { name: 'Redrive' }).click();
    await page.waitForURL((url) => url.pathname === `/console/runs/${failed}/redrive`);
    expect(await seriousFindings(page)).toEqual([]);
    const csrf = await page.locator('form[action$="/redrive"] input[name=csrf]').inputValue();
    const key = await page.locator('form[action$="/redrive"] input[name=key]').inputValue();
    expect(await crossSitePost(`/console/runs/${failed}/redrive`, { csrf, key })).toBe(403);
    const forged = await page.evaluate(
      async (path) => (await fetch(path, { method: 'POST', body: new URLSearchParams({ csrf: 'forged', key: 'console-redrive-forged' }) })).status,
      `/console/runs/${failed}/redrive`,
    );
    expect(forged).toBe(403);
    await page.getByRole('button', { name: 'Redrive' }).click();
    await page.waitForURL((url) => /^\/console\/runs\/[0-9a-f]{32}$/.test(url.pathname) && !url.pathname.endsWith(failed));
    const redrive = new URL(page.url()).pathname.split('/').at(-1) as string;
    expect(await page.locator('#redrive-of').textContent()).toBe(failed);
    expect(await seriousFindings(page)).toEqual([]);
    expect((await stack.waitForEnd(redrive, alice)).status).toBe('ERROR');
    await page.locator('#redrive-of').click();
    await page.waitForURL(`${base()}/console/runs/${failed}`);
    expect(await page.locator('#redriven-by').textContent()).toBe(redrive);
    await page.close();
  });

  it('lists a schedule put through the API with its next times', async () => {
    const { alice } = stack.credentials;
    const body = JSON.stringify({
      choreo: HMAC,
      inputs: [
        { name: 'Text', value: 'tick' },
        { name: 'Key', value: 'k' },
      ],
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Berlin',
    });
    const put = await stack.call('PUT', '/schedules/browser-morning', alice, { body });
    expect(put.status, put.text).toBe(201);
    const nextTimes = (put.json().nextTimes as string[]).map((time) => new Date(Number(time)).toISOString().replace('T', ' ').replace('Z', ' UTC'));
    expect(nextTimes).toHaveLength(5);
    const page = await context.newPage();
    await signIn(page, alice, '/console/runs');
    await page.getByRole('link', { name: 'Schedules' }).click();
    await page.waitForURL(`${base()}/console/schedules`);
    const row = page.locator('table.schedules tbody tr', { has: page.locator('th', { hasText: 'browser-morning' }) });
    const text = (await row.textContent()) ?? '';
    for (const time of nextTimes) expect(text).toContain(time);
    expect(text).toContain('Europe/Berlin');
    expect(await seriousFindings(page)).toEqual([]);
    await row.getByRole('link', { name: 'Runs of browser-morning' }).click();
    await page.waitForURL((url) => url.pathname === '/console/runs' && url.searchParams.get('schedule') === 'browser-morning');
    expect(await page.getByLabel('Schedule').inputValue()).toBe('browser-morning');
    await page.close();
  });

  it("shows a webhook's delivery to a local HTTPS receiver, and sends it again", async () => {
    const { alice } = stack.credentials;
    const put = await stack.call('PUT', '/webhooks/browser-ends', alice, {
      body: JSON.stringify({ url: receiver.url('/browser-ends'), events: ['execution.ended'] }),
    });
    expect(put.status, put.text).toBe(201);
    const secret = put.json().secret as string;
    const run = await stack.startRun(ECHO, alice, { Message: 'hello' });
    await waitFor(() => receiver.at('/browser-ends').length === 1, { timeoutMs: 20_000, what: 'the delivery' });
    const page = await context.newPage();
    await signIn(page, alice, '/console/webhooks');
    const section = page.locator('section#webhook-browser-ends');
    const row = section.locator('table.deliveries tbody tr', { hasText: run });
    // The receiver answered before the worker recorded it: reload until the page says so.
    await waitFor(
      async () => {
        await page.reload();
        return ((await row.textContent()) ?? '').includes('delivered');
      },
      { timeoutMs: 10_000, what: 'the delivery recorded' },
    );
    expect(await section.textContent()).toContain(receiver.url('/browser-ends'));
    expect(await page.content()).not.toContain(secret);
    expect(await seriousFindings(page)).toEqual([]);
    const form = row.locator('form');
    const action = (await form.getAttribute('action')) ?? '';
    const csrf = await form.locator('input[name=csrf]').inputValue();
    expect(await crossSitePost(action, { csrf })).toBe(403);
    await row.getByRole('button', { name: /Redeliver/ }).click();
    await page.waitForURL((url) => url.pathname === '/console/webhooks' && url.searchParams.has('redelivered'));
    await page.getByRole('status').waitFor();
    await waitFor(() => receiver.at('/browser-ends').length === 2, { timeoutMs: 20_000, what: 'the redelivery' });
    const [first, again] = receiver.at('/browser-ends');
    expect(again?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(again?.body).toBe(first?.body);
    await page.close();
  });

  it('asks nothing of another origin, and nothing is refused by the pages policy', async () => {
    expect(requested.some((url) => url.endsWith('/console/assets/console.js'))).toBe(true);
    expect(requested.filter((url) => !isLocal(url))).toEqual([]);
    expect(refusedByPolicy).toEqual([]);
  });
});
