import type { ExecutionJobData, ExecutionStore } from '@ces/store';
import type { Queue } from 'bullmq';
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../app-env.ts';
import { DASHBOARD_PATH } from '../routes/ops-routes.ts';
import { CONSOLE_PATH } from './console-path.ts';
import { formatDuration } from './console-times.ts';
import { pageLayout } from './page-layout.ts';

const REFRESH_MS = 2_000;

/** When the oldest job still waiting for a worker was queued, from both ends of the waiting list (whatever its order). */
async function oldestQueuedAt(queue: Queue<ExecutionJobData>): Promise<number | undefined> {
  const [first, last] = await Promise.all([queue.getWaiting(0, 0), queue.getWaiting(-1, -1)]);
  const times = [...first, ...last].map((job) => job.timestamp).filter((time) => Number.isFinite(time));
  return times.length === 0 ? undefined : Math.min(...times);
}

/**
 * `GET /console/queues`: where the RUNNING executions are, as `/ops/executions` counts them, and
 * how long the oldest queued one has waited; one row per shard (there is one).
 */
export function queuesPage(deps: { queue: Queue<ExecutionJobData>; executions: ExecutionStore }) {
  return new Hono<AppEnv>().get('/queues', async (c) => {
    const [waiting, jobs, oldest] = await Promise.all([
      deps.executions.countWaiting(),
      deps.queue.getJobCounts('waiting', 'active', 'delayed'),
      oldestQueuedAt(deps.queue),
    ]);
    const now = Date.now();
    const body = html`<div id="live-part" data-refresh="${REFRESH_MS}" data-refresh-from="${CONSOLE_PATH}/queues">
<table class="queues">
<caption>Executions by where they are</caption>
<thead><tr><th scope="col">Shard</th><th scope="col">Queued</th><th scope="col">Executing</th><th scope="col">Waiting for a time</th><th scope="col">Waiting for a call back</th><th scope="col">Delayed</th><th scope="col">Oldest queued</th></tr></thead>
<tbody><tr>
<th scope="row">${deps.queue.name}</th>
<td>${jobs.waiting ?? 0}</td>
<td>${jobs.active ?? 0}</td>
<td>${waiting.total - waiting.forCallBack}</td>
<td>${waiting.forCallBack}</td>
<td>${jobs.delayed ?? 0}</td>
<td>${oldest === undefined ? 'none queued' : `${formatDuration(Math.max(0, now - oldest))} ago`}</td>
</tr></tbody>
</table>
</div>
<p>The jobs themselves: <a href="${DASHBOARD_PATH}">the queue dashboard</a> (operator's Basic credentials).</p>`;
    return c.html(pageLayout({ title: 'Queues', section: 'queues', signedIn: { principal: c.get('principal'), csrf: c.get('consoleSession').csrf }, body }));
  });
}
