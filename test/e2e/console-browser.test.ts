import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { newExecutionFixture } from '@ces/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isLocal, launchLocalBrowser, type LocalBrowser } from '../support/local-browser.ts';
import { startStack, type Credential, type Stack } from '../support/stack.ts';

const COUNTDOWN = '/Library/Utilities/Development/Countdown';
const SECRET_INPUT = 'console-secret-input-5d1c0a';
const SECRET_OUTPUT_PREFIX = 'kept:';
const SECRETS_CHOREO = '/Mine/ConsoleSecrets';

/** A run with a secret input, a plain one, and a secret output made from the secret. */
const secretsChoreo = {
  description: 'Returns its secret input as a secret output.',
  inputs: {
    Secret: { description: 'A value to keep secret.', required: true, secret: true },
    Plain: { description: 'A value shown as it is.', required: true },
  },
  outputs: {
    Key: { description: 'The secret, kept.', value: `${SECRET_OUTPUT_PREFIX}{{steps.first.text}}`, secret: true },
    Echo: { description: 'The plain input.', value: '{{inputs.Plain}}' },
  },
  steps: [{ id: 'first', kind: 'noop', args: { text: '{{inputs.Secret}}' } }],
};

const PARENT_CHOREO = '/Mine/ConsoleParent';

/** Starts a child run, then waits for a call back. */
const parentChoreo = {
  description: 'Runs a child, then waits for a call back.',
  inputs: {},
  outputs: { Child: { description: "The child's id.", value: '{{steps.child.executionId}}' } },
  steps: [
    { id: 'child', kind: 'choreo.run', args: { choreo: '/Library/Utilities/Development/Echo', inputs: { Message: 'from the parent' } } },
    { id: 'callback', kind: 'control.waitForCallback', args: { timeoutSeconds: 120 } },
  ],
};

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical findings on the page as it is now (injected by the test, as the page loads no script of another origin). */
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

// The console in headless Chromium, against a real API, worker and Redis, over HTTPS.
describe('the console in a real browser', { timeout: 90_000 }, () => {
  let stack: Stack;
  let browser: LocalBrowser;
  let context: BrowserContext;
  let requested: string[] = [];
  let refusedByPolicy: string[] = [];
  let secretRun: string;
  let bobsRun: string;
  const base = () => `https://127.0.0.1:${stack.port}`;

  beforeAll(async () => {
    // Waits in the worker, not suspended: the runs here are short.
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1, workerEnv: { WORKER_CONCURRENCY: '4', DURABLE_WAIT_THRESHOLD_MS: '86400000' } });
    const { alice, bob } = stack.credentials;
    const put = await stack.call('PUT', `/choreos${SECRETS_CHOREO}`, alice, { body: JSON.stringify(secretsChoreo) });
    if (put.status !== 201) throw new Error(`PUT answered ${put.status}: ${put.text}`);
    secretRun = await stack.startRun(SECRETS_CHOREO, alice, { Secret: SECRET_INPUT, Plain: 'plain-value' });
    bobsRun = await stack.startRun('/Library/Utilities/Development/Echo', bob, { Message: 'hello' });
    await stack.waitForEnd(secretRun, alice);
    // Enough ended runs of one Choreo for more than one page (50 a page).
    const start = Date.UTC(2024, 0, 1);
    for (let i = 0; i < 60; i += 1) {
      const execution = newExecutionFixture({ account: 'acme', choreo: '/Library/Paged', starttime: start + i * 1000 });
      await stack.executions.accept(execution, { maxRunningPerAccount: 0 });
      await stack.executions.end(execution.id, { status: i % 3 === 0 ? 'ERROR' : 'SUCCESS', ...(i % 3 === 0 ? { error: 'boom' } : {}) });
    }
    browser = await launchLocalBrowser();
    ({ context, requested, refusedByPolicy } = await browser.watchedContext());
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** Signs in afresh through the form that a visit to `path` leads to, and lands there. */
  async function signIn(page: Page, credential: Credential | { name: string; secret: string }, path = '/console/runs') {
    await page.context().clearCookies();
    await page.goto(`${base()}${path}`);
    await page.getByLabel('Account').fill('account' in credential ? credential.account : '');
    await page.getByLabel('Name').fill(credential.name);
    await page.getByLabel('Password').fill(credential.secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === path.split('?')[0]);
  }

  it('signs in from any page and back to it, and signs out', async () => {
    const page = await context.newPage();
    await page.goto(`${base()}/console/runs?status=SUCCESS`);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    expect(await seriousFindings(page)).toEqual([]);
    await page.getByLabel('Account').fill('acme');
    await page.getByLabel('Name').fill('alice');
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('not right').waitFor();
    await page.getByLabel('Password').fill(stack.credentials.alice.secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base()}/console/runs?status=SUCCESS`);
    expect(await page.getByLabel('Status').inputValue()).toBe('SUCCESS');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/console/sign-in');
    await page.goto(`${base()}/console/runs`);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await page.close();
  });

  it('filters by status and Choreo, and pages by the cursor', async () => {
    const page = await context.newPage();
    await signIn(page, stack.credentials.alice);
    expect(await seriousFindings(page)).toEqual([]);
    await page.getByLabel('Choreo').fill('/Library/Paged');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL((url) => url.searchParams.get('choreo') === '/Library/Paged');
    const rowsOf = async () => page.locator('table.runs tbody tr').allInnerTexts();
    const first = await rowsOf();
    expect(first).toHaveLength(50);
    await page.getByRole('link', { name: 'Older runs' }).click();
    await page.waitForURL((url) => url.searchParams.has('cursor'));
    const second = await rowsOf();
    expect(second).toHaveLength(10);
    expect(second.filter((row) => first.includes(row))).toEqual([]);
    expect(await page.getByRole('link', { name: 'Older runs' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Newest runs' }).click();
    await page.waitForURL((url) => !url.searchParams.has('cursor') && url.searchParams.get('choreo') === '/Library/Paged');
    expect(await rowsOf()).toEqual(first);

    await page.goto(`${base()}/console/runs?choreo=%2FLibrary%2FPaged`);
    await page.getByLabel('Status').selectOption('ERROR');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL((url) => url.searchParams.get('status') === 'ERROR');
    const errors = await rowsOf();
    expect(errors).toHaveLength(20);
    expect(errors.every((row) => row.includes('ERROR'))).toBe(true);
    // Every row links to its run.
    await page.locator('table.runs tbody tr a').first().click();
    await page.waitForURL((url) => /^\/console\/runs\/[0-9a-f]{32}$/.test(url.pathname));
    await page.close();
  });

  it('shows a run with its secret inputs and outputs masked, and its steps', async () => {
    const page = await context.newPage();
    await signIn(page, stack.credentials.alice, `/console/runs/${secretRun}`);
    const text = await page.locator('main').textContent();
    expect(text).toContain(SECRETS_CHOREO);
    expect(text).toContain('SUCCESS');
    expect(text).toContain('plain-value');
    expect(text).toContain('********');
    const content = await page.content();
    expect(content).not.toContain(SECRET_INPUT);
    expect(content).not.toContain(SECRET_OUTPUT_PREFIX);
    // Both secret names are there, each with the mask for its value.
    for (const name of ['Secret', 'Key']) expect(await page.locator('tr', { has: page.locator(`th:text-is("${name}")`) }).textContent()).toContain('********');
    expect(await page.locator('table.timeline tbody tr').count()).toBeGreaterThan(0);
    expect(await seriousFindings(page)).toEqual([]);
    await page.close();
  });

  it('links a child run from its step, and says what a waiting run waits for and until when', async () => {
    const { alice } = stack.credentials;
    const put = await stack.call('PUT', `/choreos${PARENT_CHOREO}`, alice, { body: JSON.stringify(parentChoreo) });
    expect(put.status, put.text).toBe(201);
    const id = await stack.startRun(PARENT_CHOREO, alice);
    const page = await context.newPage();
    await signIn(page, alice, `/console/runs/${id}`);
    // Followed live: the page shows the wait once the run is in it.
    await page.locator('dt', { hasText: 'Waiting' }).waitFor({ timeout: 20_000 });
    const waiting = (await page.locator('dd', { hasText: 'for a call back' }).textContent()) ?? '';
    expect(waiting).toContain('callback');
    expect(waiting).toMatch(/until \d{4}-\d{2}-\d{2} /);
    await page.getByRole('link', { name: /child run/ }).click();
    await page.waitForURL((url) => /^\/console\/runs\/[0-9a-f]{32}$/.test(url.pathname) && !url.pathname.endsWith(id));
    expect(await page.locator('main').textContent()).toContain('/Library/Utilities/Development/Echo');
    await page.getByRole('link', { name: id }).click();
    await page.waitForURL(`${base()}/console/runs/${id}`);
    await page.close();
    await stack.call('DELETE', `/choreo-executions/${id}`, alice);
  });

  it("answers another account's run 404", async () => {
    const page = await context.newPage();
    await signIn(page, stack.credentials.alice);
    const answer = await page.goto(`${base()}/console/runs/${bobsRun}`);
    expect(answer?.status()).toBe(404);
    expect(await seriousFindings(page)).toEqual([]);
    await page.close();
  });

  it('follows a running run live until its end shows, without reloading', async () => {
    const id = await stack.startRun(COUNTDOWN, stack.credentials.alice, { StepMilliseconds: '600' });
    const page = await context.newPage();
    await signIn(page, stack.credentials.alice, `/console/runs/${id}`);
    expect(await page.locator('#run-status').textContent()).toBe('RUNNING');
    await page.evaluate(() => {
      (globalThis as unknown as { stillThisPage: boolean }).stillThisPage = true;
    });
    // Steps show as they end, while the run goes on.
    await page.locator('table.timeline tbody tr').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('#run-status').textContent()).toBe('RUNNING');
    await page.locator('#run-status', { hasText: 'SUCCESS' }).waitFor({ timeout: 20_000 });
    expect(await page.evaluate(() => (globalThis as unknown as { stillThisPage?: boolean }).stillThisPage)).toBe(true);
    expect(await page.locator('table.timeline tbody tr').count()).toBe(10);
    await page.close();
  });

  it('terminates a running run from its page, after a confirmation', async () => {
    const id = await stack.startRun(COUNTDOWN, stack.credentials.alice, { StepMilliseconds: '3000' });
    const page = await context.newPage();
    await signIn(page, stack.credentials.alice, `/console/runs/${id}`);
    await page.getByRole('button', { name: 'Terminate' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/terminate'));
    expect(await seriousFindings(page)).toEqual([]);
    await page.getByRole('button', { name: 'Terminate' }).click();
    await page.waitForURL((url) => url.pathname === `/console/runs/${id}`);
    await page.locator('#run-status', { hasText: 'TERMINATED_MANUALLY' }).waitFor({ timeout: 20_000 });
    expect((await stack.waitForEnd(id, stack.credentials.alice)).status).toBe('TERMINATED_MANUALLY');
    await page.close();
  });

  it('refuses a POST without the CSRF token, from the page itself or another site', async () => {
    const page = await context.newPage();
    await signIn(page, stack.credentials.alice);
    const status = await page.evaluate(
      async () => (await fetch('/console/sign-out', { method: 'POST', body: new URLSearchParams({ csrf: 'forged' }) })).status,
    );
    expect(status).toBe(403);
    const csrf = await page.locator('input[name=csrf]').first().inputValue();
    // Another site's form, with the right token even: the browser says where it comes from.
    const crossSite = await context.request.post(`${base()}/console/sign-out`, {
      form: { csrf },
      headers: { origin: 'https://elsewhere.test', 'sec-fetch-site': 'cross-site' },
      maxRedirects: 0,
    });
    expect(crossSite.status()).toBe(403);
    await page.reload();
    expect(new URL(page.url()).pathname).toBe('/console/runs');
    await page.close();
  });

  it("shows operators every account's runs, the live workers and the queues", async () => {
    const operatorContext = await browser.watchedContext();
    const page = await operatorContext.context.newPage();
    await signIn(page, stack.credentials.operator);
    expect(await page.locator('table.runs thead').textContent()).toContain('Account');
    await page.getByLabel('Account', { exact: true }).fill('other');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.locator('table.runs tbody tr', { hasText: bobsRun }).waitFor();
    await page.locator('table.runs tbody tr a').first().click();
    await page.waitForURL(`${base()}/console/runs/${bobsRun}`);
    await page.getByRole('link', { name: 'Workers' }).click();
    await page.locator('table.workers tbody tr', { hasText: '10.0.0.1' }).waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await page.getByRole('link', { name: 'Queues' }).click();
    await page.locator('table.queues').waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    expect(operatorContext.requested.filter((url) => !isLocal(url))).toEqual([]);
    expect(operatorContext.refusedByPolicy).toEqual([]);
    await operatorContext.context.close();
  });

  it('keeps the workers page live: a new worker shows, a killed one leaves within the heartbeat TTL', async () => {
    const page = await context.newPage();
    await signIn(page, stack.credentials.operator, '/console/workers');
    await page.evaluate(() => {
      (globalThis as unknown as { stillThisPage: boolean }).stillThisPage = true;
    });
    const worker = stack.addWorker();
    const row = page.locator('table.workers tbody tr', { hasText: '10.0.0.2' });
    await row.waitFor({ timeout: 30_000 });
    worker.kill('SIGKILL');
    // Three missed beats (15 s) and it is gone, with the page's refresh after it.
    await row.waitFor({ state: 'detached', timeout: 25_000 });
    expect(await page.evaluate(() => (globalThis as unknown as { stillThisPage?: boolean }).stillThisPage)).toBe(true);
    await page.close();
  });

  it('asks nothing of another origin, and nothing is refused by the pages policy', async () => {
    expect(requested.length).toBeGreaterThan(10);
    expect(requested.some((url) => url.endsWith('/console/assets/console.js'))).toBe(true);
    expect(requested.filter((url) => !isLocal(url))).toEqual([]);
    expect(refusedByPolicy).toEqual([]);
  });
});
