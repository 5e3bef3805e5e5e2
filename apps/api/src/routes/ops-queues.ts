import { createHash } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { HonoAdapter } from '@bull-board/hono';
import { serveStatic } from '@hono/node-server/serve-static';
import type { ExecutionJobData, ExecutionQueues, ExecutionStore, ExecutionSummary } from '@ces/store';
import type { Job, Queue } from 'bullmq';
import { Hono } from 'hono';

/**
 * Bull Board's answer to an exception in one of its handlers: its own error shape (a translation
 * key the dashboard shows), without the exception's message. Its deliberate refusals (an unknown
 * queue or job) are answers, not exceptions, and keep their own.
 */
function dashboardError() {
  return { status: 500, body: { error: { key: 'ERRORS.INTERNAL_SERVER_ERROR' } } } as const;
}

/**
 * An operator may open the dashboard with the credentials in its address
 * (`https://name:password@host/ops/queues`): the browser then answers the Basic challenge with them
 * and keeps them for the site, no dialog needed. But a page whose address holds credentials cannot
 * `fetch` relative addresses (they would carry the credentials too): the dashboard's translations
 * would fail. So the page first goes to the same address without them (`location.href` shows it
 * without; the document's address, which `baseURI` still shows before any `<base>`, has them);
 * the browser sends the credentials it kept.
 */
const DROP_ADDRESS_CREDENTIALS = 'var u=new URL(document.baseURI);if(u.username||u.password)location.replace(location.href)';

/**
 * What the dashboard's page may load: its own scripts, styles and images, from this origin only.
 * The service runs without access to the Internet; Bull Board's page asks for web fonts from
 * Google, which are taken out of it (the page falls back to the system's fonts), and this policy
 * keeps anything else from leaving. Styles inline: the page and its components set some. The one
 * inline script is allowed by its digest.
 */
const DASHBOARD_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' 'sha256-${createHash('sha256').update(DROP_ADDRESS_CREDENTIALS).digest('base64')}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** A `<link>` to another origin (`https://…` or `//…`), such as Bull Board's Google Fonts stylesheet. */
const EXTERNAL_LINK = /<link\b[^>]*\bhref="(?:[a-z][a-z0-9+.-]*:)?\/\/[^"]*"[^>]*>/gi;

/** A job's card names its execution as an operator looks for it, not by its id alone. */
function executionCardName(executionId: string, record: ExecutionSummary | undefined): string {
  if (!record) return `${executionId} · record expired`;
  return [record.choreo, `account ${record.account}`, record.host ? `host ${record.host}` : 'not taken', record.status].join(' · ');
}

/**
 * The execution queue as the dashboard shows it: each job named by its execution's Choreo,
 * account, host and status, read from the records of the page's jobs (ten by default) when the
 * page asks. The job itself carries only the execution's id.
 */
class ExecutionQueueAdapter extends BullMQAdapter {
  private readonly executions: ExecutionStore;

  constructor(queue: Queue<ExecutionJobData>, executions: ExecutionStore, shard: string | undefined) {
    super(queue, {
      readOnlyMode: true,
      description: shard === undefined ? 'Choreo executions waiting for and held by workers' : `Choreo executions of shard ${shard}`,
      // Every shard's queue has the same name under its own key prefix: the board tells them apart by this.
      ...(shard === undefined ? {} : { prefix: `shard-${shard}.` }),
    });
    this.executions = executions;
  }

  override async getJobs(...args: Parameters<BullMQAdapter['getJobs']>): Promise<Job[]> {
    const jobs = await super.getJobs(...args);
    await Promise.all(jobs.map((job) => this.describe(job)));
    return jobs;
  }

  override async getJob(id: string): Promise<Job | undefined> {
    const job = await super.getJob(id);
    if (job) await this.describe(job);
    return job;
  }

  private async describe(job: Job): Promise<void> {
    const executionId = (job.data as Partial<ExecutionJobData>).executionId ?? String(job.id);
    const record = await this.executions.summary(executionId, { withOutputs: false });
    job.name = executionCardName(executionId, record);
    if (record) {
      job.data = { ...job.data, choreo: record.choreo, account: record.account, host: record.host, status: record.status };
    }
  }
}

/**
 * The queue dashboard (Bull Board) at `basePath`. It is read-only: an execution's state lives in
 * its record, so a job retried, promoted or removed from the dashboard would disagree with it —
 * terminating goes through the API or the admin command line, which keep the two in step.
 */
export function opsQueuesRoute(deps: { queues: ExecutionQueues; executions: ExecutionStore; basePath: string }): Hono {
  const serverAdapter = new HonoAdapter(serveStatic).setBasePath(deps.basePath);
  // A queue per shard, named by its index once there is more than one.
  const adapters = () => {
    const all = deps.queues.all;
    return all.map((queue, index) => new ExecutionQueueAdapter(queue, deps.executions, all.length === 1 ? undefined : String(index)));
  };
  const board = createBullBoard({ queues: adapters(), serverAdapter, options: { uiConfig: { boardTitle: 'Choreo executions' } } });
  let shown = deps.queues.all.length;
  // Bull Board's default answer carries the exception's message; a 5xx must not show internals.
  serverAdapter.setErrorHandler(dashboardError);
  const dashboard = new Hono();
  dashboard.use(async (_c, next) => {
    // Shards added since (the layout reads its registry again): every page shows them all.
    if (deps.queues.all.length !== shown) {
      shown = deps.queues.all.length;
      board.replaceQueues(adapters());
    }
    await next();
  });
  dashboard.use(async (c, next) => {
    await next();
    if (c.res.headers.get('content-type')?.startsWith('text/html')) {
      const page = (await c.res.text()).replace(EXTERNAL_LINK, '').replace('<head>', `<head><script>${DROP_ADDRESS_CREDENTIALS}</script>`);
      const headers = new Headers(c.res.headers);
      headers.delete('content-length');
      c.res = new Response(page, { status: c.res.status, headers });
    }
    c.header('Content-Security-Policy', DASHBOARD_CONTENT_SECURITY_POLICY);
  });
  dashboard.route('/', serverAdapter.registerPlugin());
  return dashboard;
}
