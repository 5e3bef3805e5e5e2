import { mayAccessChoreo, type Principal } from '@ces/accounts';
import { EXECUTION_STATUSES, type HistoryEntry, type HistoryQuery, type RunHistory } from '@ces/store';
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../app-env.ts';
import { encodeHistoryCursor, historyCursorSchema } from '../formats/request-schemas.ts';
import { SCHEDULE_NAME } from '../schedules/schedule-access.ts';
import type { Html } from './console-html.ts';
import { CONSOLE_PATH, runPath } from './console-path.ts';
import { formatDuration, formatTime, parseTimeField, timeFieldValue } from './console-times.ts';
import { pageLayout } from './page-layout.ts';

const PAGE_SIZE = 50;
const CHOREO_ID = /^\/[\w./-]{1,1000}$/;
const ACCOUNT_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The filters as the form holds them: what the page shows in its fields, and links to the next page with. */
interface RunFilters {
  status: string;
  choreo: string;
  since: string;
  until: string;
  account: string;
  /** A schedule's name: only the runs its ticks started. */
  schedule: string;
}

/** The filters as the history reads them, or the first problem with them. */
function historyQueryOf(filters: RunFilters, principal: Principal): { query: Omit<HistoryQuery, 'limit'> } | { problem: string } {
  const query: Omit<HistoryQuery, 'limit'> = {};
  if (principal.kind === 'operator') {
    if (filters.account !== '') {
      if (!ACCOUNT_NAME.test(filters.account)) return { problem: 'Account must be an account name.' };
      query.account = filters.account;
    }
  } else {
    query.account = principal.account;
  }
  if (filters.schedule !== '' && !SCHEDULE_NAME.test(filters.schedule)) return { problem: 'Schedule must be a schedule name.' };
  // No index by schedule: its runs are picked out of the account's (or Choreo's) runs as they are read.
  const schedule = filters.schedule;
  const mayAccess = (entry: HistoryEntry) => principal.kind === 'operator' || mayAccessChoreo(principal.choreos, entry.choreo);
  const ofSchedule = (entry: HistoryEntry) => schedule === '' || entry.schedule?.name === schedule;
  if (principal.kind !== 'operator' || schedule !== '') query.include = (entry) => mayAccess(entry) && ofSchedule(entry);
  if (filters.status !== '') {
    const status = EXECUTION_STATUSES.find((known) => known === filters.status);
    if (!status) return { problem: 'Status must be one of the listed statuses.' };
    query.status = status;
  }
  if (filters.choreo !== '') {
    const choreo = filters.choreo.startsWith('/') ? filters.choreo : `/${filters.choreo}`;
    if (!CHOREO_ID.test(choreo)) return { problem: 'Choreo must be a Choreo id, such as /Library/Utilities/Encoding/Base64Encode.' };
    query.choreo = choreo;
  }
  for (const [name, label] of [
    ['since', 'Started from'],
    ['until', 'Started until'],
  ] as const) {
    if (filters[name] === '') continue;
    const time = parseTimeField(filters[name]);
    if (time === undefined) return { problem: `${label} must be a date and time (UTC).` };
    query[name] = name === 'until' ? time + 999 : time;
  }
  if (query.since !== undefined && query.until !== undefined && query.since > query.until) return { problem: 'Started from must not be after Started until.' };
  return { query };
}

function filterForm(filters: RunFilters, principal: Principal): Html {
  const statusOptions = ['', ...EXECUTION_STATUSES].map(
    (status) => html`<option value="${status}"${status === filters.status ? html` selected` : ''}>${status === '' ? 'Any' : status}</option>`,
  );
  return html`<form class="filters" method="get" action="${CONSOLE_PATH}/runs" role="search" aria-label="Filter runs">
<p><label for="status">Status</label> <select id="status" name="status">${statusOptions}</select></p>
<p><label for="choreo">Choreo</label> <input id="choreo" name="choreo" value="${filters.choreo}" placeholder="/Library/…"></p>
<p><label for="since">Started from (UTC)</label> <input id="since" name="since" type="datetime-local" step="1" value="${filters.since}"></p>
<p><label for="until">Started until (UTC)</label> <input id="until" name="until" type="datetime-local" step="1" value="${filters.until}"></p>
<p><label for="schedule">Schedule</label> <input id="schedule" name="schedule" value="${filters.schedule}"></p>
${principal.kind === 'operator' ? html`<p><label for="account">Account</label> <input id="account" name="account" value="${filters.account}"></p>` : ''}
<p><button type="submit">Filter</button> <a href="${CONSOLE_PATH}/runs">Clear</a></p>
</form>`;
}

function runRow(entry: HistoryEntry, withAccount: boolean): Html {
  const duration = entry.endtime === undefined ? '' : formatDuration(entry.endtime - entry.starttime);
  return html`<tr>
<td><a href="${runPath(entry.id)}"><code>${entry.id}</code></a></td>
${withAccount ? html`<td>${entry.account}</td>` : ''}
<td>${entry.choreo}</td>
<td><span class="status status-${entry.status.toLowerCase()}">${entry.status}</span></td>
<td>${formatTime(entry.starttime)}</td>
<td>${duration}</td>
<td>${entry.host}</td>
</tr>`;
}

/** The runs page with the same filters, from `cursor` on (from the newest without one). */
function pageLink(filters: RunFilters, cursor?: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value !== '') params.set(name, value);
  if (cursor !== undefined) params.set('cursor', cursor);
  const query = params.toString();
  return `${CONSOLE_PATH}/runs${query ? `?${query}` : ''}`;
}

/** `GET /console/runs`: the run history, newest first, filtered, in pages of PAGE_SIZE by the history's cursor. */
export function runsPage(deps: { history: RunHistory }) {
  return new Hono<AppEnv>().get('/runs', async (c) => {
    const principal = c.get('principal');
    const q = (name: string) => c.req.query(name)?.trim() ?? '';
    const filters: RunFilters = {
      status: q('status'),
      choreo: q('choreo'),
      since: q('since'),
      until: q('until'),
      account: q('account'),
      schedule: q('schedule'),
    };
    // A time given in epoch ms (as the API takes it) is shown in the field as a date.
    for (const name of ['since', 'until'] as const) if (/^\d{1,15}$/.test(filters[name])) filters[name] = timeFieldValue(Number(filters[name]));
    const parsed = historyQueryOf(filters, principal);
    const cursorText = c.req.query('cursor');
    const cursor = cursorText ? historyCursorSchema.safeParse(cursorText) : undefined;
    const withAccount = principal.kind === 'operator';
    const layout = (body: Html, status: 200 | 400 = 200) =>
      c.html(pageLayout({ title: 'Runs', section: 'runs', signedIn: { principal, csrf: c.get('consoleSession').csrf }, body }), status);
    if ('problem' in parsed || (cursor && !cursor.success)) {
      const problem = 'problem' in parsed ? parsed.problem : 'This page link has expired: start again from the newest runs.';
      return layout(html`${filterForm(filters, principal)}<p class="problem" role="alert">${problem}</p>`, 400);
    }
    const page = await deps.history.list({ ...parsed.query, limit: PAGE_SIZE, ...(cursor?.data ? { cursor: cursor.data } : {}) });
    const rows = page.entries.map((entry) => runRow(entry, withAccount));
    const table =
      page.entries.length === 0
        ? html`<p>No runs match.</p>`
        : html`<table class="runs">
<caption>${cursor ? 'Older runs' : 'Newest runs first'}</caption>
<thead><tr><th scope="col">Run</th>${withAccount ? html`<th scope="col">Account</th>` : ''}<th scope="col">Choreo</th><th scope="col">Status</th><th scope="col">Started</th><th scope="col">Duration</th><th scope="col">Host</th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
    const nav = html`<nav class="pages" aria-label="Pages of runs">${cursor ? html`<a href="${pageLink(filters)}">Newest runs</a> ` : ''}${
      page.next ? html`<a href="${pageLink(filters, encodeHistoryCursor(page.next))}" rel="next">Older runs</a>` : ''
    }</nav>`;
    return layout(html`${filterForm(filters, principal)}${table}${nav}`);
  });
}
