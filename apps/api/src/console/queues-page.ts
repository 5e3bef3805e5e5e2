import type { ExecutionJobData, ExecutionQueues, ExecutionStore } from '@ces/store';
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
 * how long the oldest queued one has waited; one row per shard (shard-layout.ts) and, with more
 * than one, their total.
 */
export function queuesPage(deps: { queues: ExecutionQueues; executions: ExecutionStore }) {
  return new Hono<AppEnv>().get('/queues', async (c) => {
    const [waiting, perShard] = await Promise.all([
      deps.executions.countWaiting(),
      Promise.all(
        deps.queues.all.map(async (queue) => {
          const [jobs, oldest] = await Promise.all([queue.getJobCounts('waiting', 'active', 'delayed'), oldestQueuedAt(queue)]);
          return {
            name: deps.queues.all.length === 1 ? queue.name : (queue.opts.prefix ?? queue.name),
            waiting: jobs.waiting ?? 0,
            active: jobs.active ?? 0,
            delayed: jobs.delayed ?? 0,
            oldest,
          };
        }),
      ),
    ]);
    const now = Date.now();
    const since = (oldest: number | undefined) => (oldest === undefined ? 'none queued' : `${formatDuration(Math.max(0, now - oldest))} ago`);
    const oldestOfAll = perShard.map((shard) => shard.oldest).filter((at): at is number => at !== undefined);
    // The waits are counted over all shards: a shard's row leaves them to the total.
    const rows = perShard.map(
      (shard) => html`<tr>
<th scope="row">${shard.name}</th>
<td>${shard.waiting}</td>
<td>${shard.active}</td>
<td>${perShard.length === 1 ? waiting.total - waiting.forCallBack : ''}</td>
<td>${perShard.length === 1 ? waiting.forCallBack : ''}</td>
<td>${shard.delayed}</td>
<td>${since(shard.oldest)}</td>
</tr>`,
    );
    const sum = (field: 'waiting' | 'active' | 'delayed') => perShard.reduce((total, shard) => total + shard[field], 0);
    const total =
      perShard.length === 1
        ? ''
        : html`<tr class="total">
<th scope="row">All shards</th>
<td>${sum('waiting')}</td>
<td>${sum('active')}</td>
<td>${waiting.total - waiting.forCallBack}</td>
<td>${waiting.forCallBack}</td>
<td>${sum('delayed')}</td>
<td>${since(oldestOfAll.length === 0 ? undefined : Math.min(...oldestOfAll))}</td>
</tr>`;
    const body = html`<div id="live-part" data-refresh="${REFRESH_MS}" data-refresh-from="${CONSOLE_PATH}/queues">
<table class="queues">
<caption>Executions by where they are</caption>
<thead><tr><th scope="col">Shard</th><th scope="col">Queued</th><th scope="col">Executing</th><th scope="col">Waiting for a time</th><th scope="col">Waiting for a call back</th><th scope="col">Delayed</th><th scope="col">Oldest queued</th></tr></thead>
<tbody>${rows}${total}</tbody>
</table>
</div>
<p>The jobs themselves: <a href="${DASHBOARD_PATH}">the queue dashboard</a> (operator's Basic credentials).</p>`;
    return c.html(pageLayout({ title: 'Queues', section: 'queues', signedIn: { principal: c.get('principal'), csrf: c.get('consoleSession').csrf }, body }));
  });
}
