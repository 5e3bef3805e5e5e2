import { randomBytes } from 'node:crypto';
import type { ExecutionStore } from '@ces/store';
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { redriveHeadersSchema } from '../formats/request-schemas.ts';
import { publicBaseUrlOf } from '../runs/public-base-url.ts';
import type { RunLauncher } from '../runs/run-launcher.ts';
import { runPath } from './console-path.ts';
import { pageLayout } from './page-layout.ts';
import { checkRunId, mayRedriveRun } from './run-access.ts';

/** Statuses the launcher redrives from; the page offers the button for these only. */
export const REDRIVABLE_STATUSES: readonly string[] = ['ERROR', 'TERMINATED_LIMIT'];

/**
 * `GET /console/runs/<id>/redrive` asks for confirmation (a page, so that it works without
 * scripts); its form posts to the same address, which redrives as `POST …/redrive` does, with the
 * run's own inputs, and leads to the new run. The form carries an idempotency key of its own, so
 * that a form sent twice (a double click, a reload) starts one redrive.
 */
export function redriveRun(deps: { executions: ExecutionStore; launcher: RunLauncher; publicBaseUrl?: string }) {
  async function visibleRun(principal: Parameters<typeof mayRedriveRun>[0], id: string) {
    checkRunId(id);
    const record = await deps.executions.summary(id, { withOutputs: false });
    if (!record || !mayRedriveRun(principal, record)) throw new ApiError('NOT_FOUND', 'No such run.');
    return record;
  }
  return new Hono<AppEnv>()
    .get('/runs/:id/redrive', async (c) => {
      const id = c.req.param('id');
      const principal = c.get('principal');
      const record = await visibleRun(principal, id);
      const csrf = c.get('consoleSession').csrf;
      const key = `console-redrive-${randomBytes(16).toString('hex')}`;
      const body = REDRIVABLE_STATUSES.includes(record.status)
        ? html`<p>Redrive the run <code>${id}</code> of ${record.choreo}, which ended ${record.status}? A new run starts with the same version and inputs, and reuses the results of every step it completed.</p>
<form method="post" action="${runPath(id)}/redrive">
<input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="key" value="${key}">
<p><button type="submit">Redrive</button> <a href="${runPath(id)}">Cancel</a></p>
</form>`
        : html`<p>Only a run that ended ERROR or TERMINATED_LIMIT can be redriven; this one is ${record.status}.</p><p><a href="${runPath(id)}">Back to the run</a></p>`;
      return c.html(pageLayout({ title: 'Redrive a run', section: 'runs', signedIn: { principal, csrf }, body }));
    })
    .post('/runs/:id/redrive', async (c) => {
      const id = c.req.param('id');
      const principal = c.get('principal');
      await visibleRun(principal, id);
      const form = await c.req.parseBody();
      const key = redriveHeadersSchema.safeParse({ 'idempotency-key': typeof form.key === 'string' && form.key !== '' ? form.key : undefined });
      if (!key.success) throw new ApiError('BAD_REQUEST', 'This form is not one the console made. Reload the page and try again.');
      const idempotencyKey = key.data['idempotency-key'];
      const publicBaseUrl = publicBaseUrlOf(deps.publicBaseUrl, c.req.header('host'));
      const { record } = await deps.launcher.redrive(
        principal,
        id,
        { inputs: {}, outputFilters: [] },
        { ...(idempotencyKey !== undefined ? { idempotencyKey } : {}), ...(publicBaseUrl !== undefined ? { publicBaseUrl } : {}) },
      );
      return c.redirect(runPath(record.id), 303);
    });
}
