import type { ExecutionQueues, ExecutionStore } from '@ces/store';
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { terminateExecution } from '../runs/terminator.ts';
import { runPath } from './console-path.ts';
import { pageLayout } from './page-layout.ts';
import { checkRunId, mayTerminateRun } from './run-access.ts';

/**
 * `GET /console/runs/<id>/terminate` asks for confirmation (a page, so that it works without
 * scripts); its form posts to the same address, which terminates as `DELETE` does.
 */
export function terminateRun(deps: { executions: ExecutionStore; queues: ExecutionQueues }) {
  async function visibleRun(principal: Parameters<typeof mayTerminateRun>[0], id: string) {
    checkRunId(id);
    const record = await deps.executions.summary(id, { withOutputs: false });
    if (!record || !mayTerminateRun(principal, record)) throw new ApiError('NOT_FOUND', 'No such run.');
    return record;
  }
  return new Hono<AppEnv>()
    .get('/runs/:id/terminate', async (c) => {
      const id = c.req.param('id');
      const principal = c.get('principal');
      const record = await visibleRun(principal, id);
      const csrf = c.get('consoleSession').csrf;
      const body =
        record.status === 'RUNNING'
          ? html`<p>Terminate the run <code>${id}</code> of ${record.choreo}? It stops after its current step, as TERMINATED_MANUALLY.</p>
<form method="post" action="${runPath(id)}/terminate">
<input type="hidden" name="csrf" value="${csrf}">
<p><button type="submit" class="danger">Terminate</button> <a href="${runPath(id)}">Cancel</a></p>
</form>`
          : html`<p>This run has already ended as ${record.status}.</p><p><a href="${runPath(id)}">Back to the run</a></p>`;
      return c.html(pageLayout({ title: 'Terminate a run', section: 'runs', signedIn: { principal, csrf }, body }));
    })
    .post('/runs/:id/terminate', async (c) => {
      const id = c.req.param('id');
      await visibleRun(c.get('principal'), id);
      try {
        await terminateExecution(deps, id);
      } catch (error) {
        // Ended meanwhile: the run's page says how.
        if (!(error instanceof ApiError) || error.code !== 'CONFLICT') throw error;
      }
      return c.redirect(runPath(id), 303);
    });
}
