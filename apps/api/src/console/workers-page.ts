import type { WorkerHeartbeat, WorkerRegistry } from '@ces/store';
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../app-env.ts';
import type { Html } from './console-html.ts';
import { CONSOLE_PATH, runPath } from './console-path.ts';
import { formatTime } from './console-times.ts';
import { pageLayout } from './page-layout.ts';

/** How often an open page asks again (console.js): well within a heartbeat's TTL. */
const REFRESH_MS = 2_000;

function workerRow(worker: WorkerHeartbeat): Html {
  return html`<tr>
<td>${worker.host}</td>
<td>${worker.pid}</td>
<td>${worker.version}</td>
<td>${worker.concurrency}</td>
<td>${worker.active.length === 0 ? 'none' : html`<ul class="plain">${worker.active.map((id) => html`<li><a href="${runPath(id)}"><code>${id}</code></a></li>`)}</ul>`}</td>
<td>${worker.processed}</td>
<td>${worker.failed}</td>
<td>${formatTime(worker.lastSeen)}</td>
</tr>`;
}

/** `GET /console/workers`: every worker whose heartbeat is live, as `/ops/workers` lists them, refreshed while open. */
export function workersPage(deps: { workers: WorkerRegistry }) {
  return new Hono<AppEnv>().get('/workers', async (c) => {
    const workers = await deps.workers.list();
    const table =
      workers.length === 0
        ? html`<p>No live worker.</p>`
        : html`<table class="workers">
<caption>${workers.length} live ${workers.length === 1 ? 'worker' : 'workers'}, as of ${formatTime(Date.now())}</caption>
<thead><tr><th scope="col">Host</th><th scope="col">Pid</th><th scope="col">Version</th><th scope="col">Concurrency</th><th scope="col">Active runs</th><th scope="col">Processed</th><th scope="col">Failed</th><th scope="col">Last seen</th></tr></thead>
<tbody>${workers.map(workerRow)}</tbody>
</table>`;
    const body = html`<div id="live-part" data-refresh="${REFRESH_MS}" data-refresh-from="${CONSOLE_PATH}/workers">${table}</div>`;
    return c.html(pageLayout({ title: 'Workers', section: 'workers', signedIn: { principal: c.get('principal'), csrf: c.get('consoleSession').csrf }, body }));
  });
}
