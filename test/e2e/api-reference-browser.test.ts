import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isLocal, launchLocalBrowser, type LocalBrowser } from '../support/local-browser.ts';
import { startStack, type Stack } from '../support/stack.ts';

/** Swagger UI's own object in the page, as its start script leaves it. */
interface SwaggerUiWindow {
  ui: { preauthorizeBasic(scheme: string, name: string, secret: string): void; preauthorizeApiKey(scheme: string, value: string): void };
}

// A browser on a busy machine: allow for its start and its pages' scripts.
describe('the interface reference page in a real browser', { timeout: 60_000 }, () => {
  let stack: Stack;
  let browser: LocalBrowser;
  let reader: BrowserContext;
  /** Every request the page made, in order. */
  let requested: string[] = [];
  let refusedByPolicy: string[] = [];

  beforeAll(async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 0 });
    browser = await launchLocalBrowser();
    ({ context: reader, requested, refusedByPolicy } = await browser.watchedContext());
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('shows every operation, asks nothing of another origin, and tries a request against this server', async () => {
    const page = await reader.newPage();
    const answer = await page.goto(`https://127.0.0.1:${stack.port}/service-api/1.0/docs`);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['content-security-policy']).toMatch(/^default-src 'self';/);
    for (const summary of ['List Choreos', 'Choreo details', 'Run a Choreo', 'List executions', 'Execution status', 'Terminate an execution']) {
      await page.getByText(summary, { exact: true }).first().waitFor({ timeout: 20_000 });
    }
    await page.getByText('Create or replace a preset', { exact: true }).first().waitFor({ timeout: 5_000 });

    // Try it out: the page's own credentials dialog, filled through Swagger UI's interface for it.
    const { name, secret, account } = stack.credentials.alice;
    await page.evaluate(
      ([user, password, domain]) => {
        const { ui } = globalThis as unknown as SwaggerUiWindow;
        ui.preauthorizeBasic('basicAuth', user, password);
        ui.preauthorizeApiKey('serviceDomain', domain);
      },
      [name, secret, `/${account}/master`] as const,
    );
    const operation = page.locator('#operations-Choreos-listChoreos');
    await operation.locator('.opblock-summary').first().click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    const tried = page.waitForResponse((response) => response.url().endsWith('/service-api/1.0/choreos'));
    await operation.getByRole('button', { name: 'Execute' }).click();
    expect((await tried).status()).toBe(200);
    await operation.locator('.live-responses-table').getByText('/Library/Utilities/Encoding/Base64Encode').first().waitFor({ timeout: 10_000 });

    // A Choreo id is a path: its slashes reach the service as slashes.
    const details = page.locator('#operations-Choreos-getChoreo');
    await details.locator('.opblock-summary').first().click();
    await details.getByRole('button', { name: 'Try it out' }).click();
    await details.locator('input[placeholder="id"]').fill('Library/Utilities/Encoding/Base64Encode');
    const read = page.waitForResponse((response) => response.url().includes('/service-api/1.0/choreos/Library/'));
    await details.getByRole('button', { name: 'Execute' }).click();
    const readAnswer = await read;
    expect(readAnswer.url()).toMatch(/\/service-api\/1\.0\/choreos\/Library\/Utilities\/Encoding\/Base64Encode$/);
    expect(readAnswer.status()).toBe(200);
    await page.waitForLoadState('networkidle');
    await page.close();

    expect(requested.some((url) => url.endsWith('/service-api/1.0/openapi.json'))).toBe(true);
    expect(requested.filter((url) => !isLocal(url))).toEqual([]);
    expect(refusedByPolicy).toEqual([]);
  });
});
