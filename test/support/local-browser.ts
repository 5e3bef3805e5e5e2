import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it when missing). */
const CHROMIUM = '/usr/bin/chromium';
/**
 * Nothing the browser does on its own (updates, sync, safe browsing lists) may reach the network.
 * Playwright gives every launch a fresh, temporary `--user-data-dir` of its own.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Whether a URL a page asked for stays on this machine. */
export function isLocal(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'data:' || protocol === 'blob:' || url === 'about:blank') return true;
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
}

/** A browser context that records every request its pages make and every refusal by their Content-Security-Policy. */
export interface WatchedContext {
  context: BrowserContext;
  /** Every request any of its pages made, in order. */
  requested: string[];
  refusedByPolicy: string[];
}

export interface LocalBrowser {
  browser: Browser;
  /** A new context that trusts the test stack's self-signed certificate, watched. */
  watchedContext(): Promise<WatchedContext>;
  close(): Promise<void>;
}

/** Headless Debian Chromium, kept off the network. */
export async function launchLocalBrowser(): Promise<LocalBrowser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does)`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  return {
    browser,
    async watchedContext() {
      // The stack's certificate is self-signed, made for the test.
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const watched: WatchedContext = { context, requested: [], refusedByPolicy: [] };
      context.on('request', (request) => watched.requested.push(request.url()));
      context.on('console', (message) => {
        if (/Content.Security.Policy/i.test(message.text())) watched.refusedByPolicy.push(message.text());
      });
      return watched;
    },
    close: () => browser.close(),
  };
}
