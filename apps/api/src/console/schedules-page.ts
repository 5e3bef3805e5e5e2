import type { ScheduleStore } from '@ces/store';
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../app-env.ts';
import { durationText, type ShownSchedule } from '../schedules/schedule-representation.ts';
import type { ScheduleRuns } from '../schedules/schedule-runs.ts';
import type { Html } from './console-html.ts';
import { CONSOLE_PATH, runPath } from './console-path.ts';
import { formatTime } from './console-times.ts';
import { pageLayout } from './page-layout.ts';

/** The runs page filtered to one schedule's runs; its Choreo narrows the history read to one index. */
export function scheduleRunsPath(name: string, choreo?: string): string {
  const params = new URLSearchParams({ schedule: name, ...(choreo !== undefined ? { choreo } : {}) });
  return `${CONSOLE_PATH}/runs?${params.toString()}`;
}

function timing(shown: ShownSchedule): Html {
  const { timing } = shown.schedule.spec;
  return 'everyMs' in timing ? html`every ${durationText(timing.everyMs)}` : html`<code>${timing.cron}</code> (${timing.timezone})`;
}

function scheduleRow(shown: ShownSchedule): Html {
  const { schedule, nextTimes, lastRun } = shown;
  const state = schedule.paused ? 'paused' : 'active';
  return html`<tr>
<th scope="row">${schedule.name}</th>
<td>${schedule.spec.choreo}</td>
<td>${timing(shown)}</td>
<td>${state}${schedule.stateNote ? html`<span class="hint">${schedule.stateNote}</span>` : ''}</td>
<td>${nextTimes.length === 0 ? 'none while paused' : html`<ul class="plain">${nextTimes.map((time) => html`<li>${formatTime(time)}</li>`)}</ul>`}</td>
<td>${
    lastRun
      ? html`<a href="${runPath(lastRun.id)}"><code>${lastRun.id}</code></a><span class="hint">tick of ${formatTime(lastRun.scheduledTime)}: <span class="status status-${lastRun.status.toLowerCase()}">${lastRun.status}</span></span>`
      : 'none yet'
  }</td>
<td>${schedule.fired}</td>
<td>${schedule.skipped}</td>
<td>${schedule.missed}</td>
<td><a href="${scheduleRunsPath(schedule.name, schedule.spec.choreo)}">Runs of ${schedule.name}</a></td>
</tr>`;
}

/**
 * `GET /console/schedules`: the account's schedules as `GET …/schedules` shows them (next ticks
 * computed by the same code), each linked to its runs. Schedules are their accounts' alone, and
 * `/ops` does not show them: an operator is told so.
 */
export function schedulesPage(deps: { schedules: ScheduleStore; scheduleRuns: ScheduleRuns }) {
  return new Hono<AppEnv>().get('/schedules', async (c) => {
    const principal = c.get('principal');
    const layout = (body: Html) =>
      c.html(pageLayout({ title: 'Schedules', section: 'schedules', signedIn: { principal, csrf: c.get('consoleSession').csrf }, body }));
    if (principal.kind === 'operator') {
      return layout(
        html`<p>Schedules belong to their accounts, and <code>/ops</code> does not show them: an account's credentials see its schedules here. The runs they started are in the <a href="${CONSOLE_PATH}/runs">runs</a>, as every run is.</p>`,
      );
    }
    const stored = await deps.schedules.list(principal.account);
    const shown = await Promise.all(stored.map((schedule) => deps.scheduleRuns.show(schedule)));
    const body =
      shown.length === 0
        ? html`<p>This account has no schedule. Schedules are written through the API (<code>PUT …/schedules/&lt;name&gt;</code>).</p>`
        : html`<table class="schedules">
<caption>${shown.length} ${shown.length === 1 ? 'schedule' : 'schedules'}, next times in UTC</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Choreo</th><th scope="col">When</th><th scope="col">State</th><th scope="col">Next times</th><th scope="col">Last run</th><th scope="col">Fired</th><th scope="col">Skipped</th><th scope="col">Missed</th><th scope="col">Runs</th></tr></thead>
<tbody>${shown.map(scheduleRow)}</tbody>
</table>`;
    return layout(body);
  });
}
