import { waitFor } from '@ces/testing';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isLocal, launchLocalBrowser, type LocalBrowser } from '../support/local-browser.ts';
import { startStack, type Stack } from '../support/stack.ts';

const COUNTDOWN = '/Library/Utilities/Development/Countdown';

// A browser on a busy machine: allow for its start and its pages' scripts.
describe('the queue dashboard in a real browser', { timeout: 60_000 }, () => {
  let stack: Stack;
  let browser: LocalBrowser;
  /** The operator's browser: one context, so that its requests are all recorded. */
  let operator: BrowserContext;
  /** Every request any page of the browser made, in order. */
  let requested: string[] = [];
  let refusedByPolicy: string[] = [];
  let executing: string;
  let queued: string;

  const dashboardUrl = (path: string, credentials: { name: string; secret: string } = stack.credentials.operator) =>
    `https://${encodeURIComponent(credentials.name)}:${encodeURIComponent(credentials.secret)}@127.0.0.1:${stack.port}/ops/queues${path}`;

  beforeAll(async () => {
    // One worker running one execution at a time: a first long run is executing, a second waits.
    // Its runs wait in the worker, as waits under the durable threshold do: a suspended run holds no worker.
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1, workerEnv: { WORKER_CONCURRENCY: '1', DURABLE_WAIT_THRESHOLD_MS: '86400000' } });
    const inputs = { StepMilliseconds: '6000' };
    executing = await stack.startRun(COUNTDOWN, stack.credentials.acmeApp, inputs);
    await waitFor(async () => (await stack.executions.get(executing))?.host === '10.0.0.1', { timeoutMs: 15_000, what: 'the first run to be taken' });
    queued = await stack.startRun(COUNTDOWN, stack.credentials.acmeApp, inputs);

    browser = await launchLocalBrowser();
    ({ context: operator, requested, refusedByPolicy } = await browser.watchedContext());
  });

  afterAll(async () => {
    await browser?.close();
    for (const id of [executing, queued]) if (id) await stack.call('DELETE', `/choreo-executions/${id}`, stack.credentials.acmeApp).catch(() => {});
    await stack?.stop();
  });

  it('renders for an operator whose credentials are in the URL, and shows what each job runs', async () => {
    const page = await operator.newPage();
    const answer = await page.goto(dashboardUrl('/queue/executions?status=active'));
    expect(answer?.status()).toBe(200);
    // The page drops the credentials from its address (the browser keeps them for the site), so
    // that its own requests, its translations among them, are allowed.
    await page.waitForURL((url) => url.username === '' && url.password === '' && url.pathname.endsWith('/queue/executions'), { timeout: 10_000 });
    // The script runs in the page; `globalThis` is its window there.
    expect(await page.evaluate(() => (globalThis as unknown as { document: { baseURI: string } }).document.baseURI)).toBe(
      `https://127.0.0.1:${stack.port}/ops/queues/`,
    );
    const executingCard = `${COUNTDOWN} · account acme · host 10.0.0.1 · RUNNING`;
    await page.getByText(executingCard).first().waitFor({ timeout: 20_000 });
    // The card also carries the execution's id.
    await page.getByText(executing).first().waitFor({ timeout: 5_000 });
    expect(requested.some((url) => /\/ops\/queues\/static\/locales\/en-US\/messages\.json/.test(url))).toBe(true);

    await page.goto(dashboardUrl('/queue/executions?status=waiting'));
    await page.getByText(`${COUNTDOWN} · account acme · not taken · RUNNING`).first().waitFor({ timeout: 20_000 });
    await page.getByText(queued).first().waitFor({ timeout: 5_000 });
    await page.close();
  });

  it('asks nothing of the Internet: every request stays on 127.0.0.1', async () => {
    const page = await operator.newPage();
    await page.goto(dashboardUrl(''));
    await page.getByText('executions').first().waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    await page.close();
    expect(requested.filter((url) => url.includes('/ops/queues/static/js/')).length).toBeGreaterThan(0);
    expect(requested.filter((url) => !isLocal(url))).toEqual([]);
    // Nothing was kept out by the page's policy either: nothing external was even attempted.
    expect(refusedByPolicy).toEqual([]);
  });

  /**
   * Opens the dashboard in a browser of its own, which has no dialog to ask for credentials:
   * a refused navigation fails. Resolves with the answers it got.
   */
  async function refusedNavigation(url: string): Promise<{ status: number; url: string; challenge?: string }[]> {
    const context = await browser.browser.newContext({ ignoreHTTPSErrors: true });
    const answers: { status: number; url: string; challenge?: string }[] = [];
    context.on('response', (response) => answers.push({ status: response.status(), url: response.url(), challenge: response.headers()['www-authenticate'] }));
    const page = await context.newPage();
    await expect(page.goto(url)).rejects.toThrow(/ERR_INVALID_AUTH_CREDENTIALS/);
    await context.close();
    return answers;
  }

  it('answers a browser without credentials with the Basic challenge, and nothing of the dashboard', async () => {
    const answers = await refusedNavigation(`https://127.0.0.1:${stack.port}/ops/queues`);
    expect(answers).toEqual([{ status: 401, url: `https://127.0.0.1:${stack.port}/ops/queues`, challenge: expect.stringMatching(/^Basic realm=/) }]);
  });

  it("refuses the dashboard to a wrong operator password and to an account user's valid credentials", async () => {
    const wrong = { ...stack.credentials.operator, secret: 'not-the-password' };
    for (const credentials of [wrong, stack.credentials.alice]) {
      const answers = await refusedNavigation(dashboardUrl('', credentials));
      expect(answers.length).toBeGreaterThan(0);
      expect(answers.every((answer) => answer.status === 401 || answer.status === 403)).toBe(true);
      expect(answers.some((answer) => answer.url.includes('/static/'))).toBe(false);
    }
  });
});
