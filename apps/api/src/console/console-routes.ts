import type { ExecutionQueues, ExecutionStore, RunEventLog, RunHistory, ScheduleStore, SecretCipher, WorkerRegistry } from '@ces/store';
import type { Logger } from '@ces/observability';
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../app-env.ts';
import type { Authentication } from '../auth/throttled-authentication.ts';
import type { RunEventFeed } from '../events/run-event-feed.ts';
import type { WebhookRouteDeps } from '../routes/webhook-deps.ts';
import type { RunLauncher } from '../runs/run-launcher.ts';
import type { ScheduleRuns } from '../schedules/schedule-runs.ts';
import { ApiError } from '../errors/api-error.ts';
import type { SealedErrorMask } from '../runs/sealed-error-mask.ts';
import { consoleAssets } from './console-assets.ts';
import { consoleErrorPage } from './console-error-page.ts';
import { CONSOLE_PATH } from './console-path.ts';
import { type ConsoleSessions, requireCsrf, requireOperator, requireSession } from './console-session.ts';
import { CONSOLE_CONTENT_SECURITY_POLICY } from './content-security-policy.ts';
import { pageLayout } from './page-layout.ts';
import { queuesPage } from './queues-page.ts';
import { redriveRun } from './redrive-run.ts';
import { runLive } from './run-live.ts';
import { runPage } from './run-page.ts';
import { runsPage } from './runs-page.ts';
import { schedulesPage } from './schedules-page.ts';
import { signInRoutes } from './sign-in-page.ts';
import { terminateRun } from './terminate-run.ts';
import { webhooksPage } from './webhooks-page.ts';
import { workersPage } from './workers-page.ts';

export interface ConsoleDeps {
  sessions: ConsoleSessions;
  authentication: Authentication;
  executions: ExecutionStore;
  history: RunHistory;
  queues: ExecutionQueues;
  workers: WorkerRegistry;
  /** The runs' events as kept. */
  runEvents: RunEventLog;
  /** The process's one feed of run events, which open run pages follow. */
  feed: RunEventFeed;
  /** How often an open run page's stream gets a heartbeat. */
  heartbeatMs: number;
  maskSealedInputs?: SealedErrorMask;
  /** Only to learn the names of secret inputs and outputs, which are shown masked. */
  cipher?: SecretCipher;
  /** Redrives, as the API's redrive does. */
  launcher: RunLauncher;
  /** PUBLIC_BASE_URL, for the URLs of the runs the console starts. */
  publicBaseUrl?: string;
  schedules: ScheduleStore;
  /** A schedule's next ticks and last run, as the API shows them. */
  scheduleRuns: ScheduleRuns;
  /** Absent without SECRETS_KEY: the webhooks page then says they are not available. */
  webhooks?: WebhookRouteDeps;
  logger: Logger;
}

const PAGE_HEADERS = {
  'Content-Security-Policy': CONSOLE_CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/** Everything under CONSOLE_PATH: the sign-in form in the open, every other page under a session. */
export function consoleRoutes(deps: ConsoleDeps) {
  const pages = new Hono<AppEnv>();
  pages.use(async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(PAGE_HEADERS)) if (!c.res.headers.has(name)) c.res.headers.set(name, value);
  });
  pages.route('/', consoleAssets());
  pages.route('/', signInRoutes({ sessions: deps.sessions, authentication: deps.authentication }));
  pages.use(requireSession(deps.sessions), requireCsrf());
  pages.get('/', (c) => c.redirect(`${CONSOLE_PATH}/runs`, 303));
  pages.route('/', runsPage(deps));
  pages.route('/', runPage(deps));
  pages.route('/', runLive(deps));
  pages.route('/', terminateRun(deps));
  pages.route('/', redriveRun(deps));
  pages.route('/', schedulesPage(deps));
  pages.route('/', webhooksPage(deps));
  pages.use('/workers', requireOperator());
  pages.use('/queues', requireOperator());
  pages.route('/', workersPage(deps));
  pages.route('/', queuesPage(deps));
  pages.all('*', () => {
    throw new ApiError('NOT_FOUND', 'There is no such page.');
  });
  pages.onError((error, c) => {
    const page = consoleErrorPage(c, error);
    if (page) return page;
    deps.logger.error({ requestId: c.get('requestId'), err: error }, 'console page failed');
    return c.html(pageLayout({ title: 'Something went wrong', body: html`<p>This page could not be shown. Try again in a moment.</p>` }), 500);
  });
  return pages;
}
