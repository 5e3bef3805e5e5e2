import type { Principal } from '@ces/accounts';
import type { ExecutionRecord, ExecutionStore, RunEventLog, SecretCipher } from '@ces/store';
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { MASKED_VALUE } from '../formats/representations.ts';
import type { SealedErrorMask } from '../runs/sealed-error-mask.ts';
import type { Html } from './console-html.ts';
import { runPath } from './console-path.ts';
import { formatDuration, formatTime } from './console-times.ts';
import { pageLayout } from './page-layout.ts';
import { readRunNotes, type RunNotes } from './run-notes.ts';
import { REDRIVABLE_STATUSES } from './redrive-run.ts';
import { checkRunId, mayRedriveRun, mayTerminateRun, mayViewRun } from './run-access.ts';
import { scheduleRunsPath } from './schedules-page.ts';
import { type ShownValues, shownInputs, shownOutputs } from './shown-values.ts';
import { stepTimeline } from './step-timeline.ts';

export interface RunPageDeps {
  executions: ExecutionStore;
  /** Masks a failed run's sealed inputs in its error, as the status resource does. */
  maskSealedInputs?: SealedErrorMask;
  /** Only to learn the names of a run's secret inputs and outputs; no value is ever shown. */
  cipher?: SecretCipher;
  /** The runs' events: the children a run started, and the wait it is in. */
  runEvents: RunEventLog;
}

function waitNote(notes: RunNotes): Html | '' {
  const { waiting } = notes;
  if (!waiting) return '';
  const what = waiting.waitFor === 'callback' ? 'a call back' : waiting.waitFor === 'child' ? html`child run <code>${waiting.child ?? ''}</code>` : 'a time';
  const until = waiting.until === undefined ? '' : html` until ${formatTime(waiting.until)}`;
  return html`<dt>Waiting</dt><dd>for ${what} at <code>${waiting.address}</code>${until}</dd>`;
}

function valuesTable(caption: string, shown: ShownValues): Html {
  const hidden = shown.hidden ? html`<p>Some values are secret and not shown.</p>` : '';
  if (shown.values.length === 0) return html`<h2>${caption}</h2><p>None.</p>${hidden}`;
  return html`<h2>${caption}</h2>
<table class="values"><thead><tr><th scope="col">Name</th><th scope="col">Value</th></tr></thead><tbody>${shown.values.map(
    (entry) =>
      html`<tr><th scope="row">${entry.name}</th><td>${entry.masked ? html`<span class="masked" title="secret">${MASKED_VALUE}</span>` : html`<pre>${entry.value}</pre>`}</td></tr>`,
  )}</tbody></table>${hidden}`;
}

/**
 * What a run was given and made, and its errors (which may quote either), are its account's: the
 * API shows them to the account's credentials only, and an operator sees in the console what
 * `/ops` shows, no more.
 */
function mayReadData(principal: Principal): boolean {
  return principal.kind !== 'operator';
}

function facts(record: ExecutionRecord, principal: Principal, now: number, notes: RunNotes): Html {
  const running = record.status === 'RUNNING';
  const duration = formatDuration((record.endtime ?? now) - record.starttime);
  return html`<dl class="facts">
<dt>Status</dt><dd><span class="status status-${record.status.toLowerCase()}" id="run-status">${record.status}</span>${
    record.terminationRequested && running ? ' (termination requested)' : ''
  }</dd>
<dt>Choreo</dt><dd>${record.choreo}${record.choreoVersion !== undefined ? html` <span class="version">version ${record.choreoVersion}</span>` : ''}</dd>
${principal.kind === 'operator' ? html`<dt>Account</dt><dd>${record.account}</dd>` : ''}
<dt>Started</dt><dd>${formatTime(record.starttime)}</dd>
<dt>Ended</dt><dd>${running ? 'not yet' : formatTime(record.endtime)}</dd>
<dt>Duration</dt><dd>${duration}${running ? ' so far' : ''}</dd>
<dt>Host</dt><dd>${record.host || (running ? 'none now' : '')}</dd>
${running ? waitNote(notes) : ''}
${record.parent ? html`<dt>Started by</dt><dd><a href="${runPath(record.parent)}"><code>${record.parent}</code></a></dd>` : ''}
${record.schedule ? html`<dt>Schedule</dt><dd><a href="${scheduleRunsPath(record.schedule.name)}">${record.schedule.name}</a>, tick of ${formatTime(record.schedule.scheduledTime)}</dd>` : ''}
${record.redriveOf ? html`<dt>Redrive of</dt><dd><a href="${runPath(record.redriveOf)}" id="redrive-of"><code>${record.redriveOf}</code></a></dd>` : ''}
${record.redrivenBy ? html`<dt>Redriven by</dt><dd><a href="${runPath(record.redrivenBy)}" id="redriven-by"><code>${record.redrivenBy}</code></a></dd>` : ''}
${
  mayReadData(principal)
    ? html`<dt>Last error</dt><dd>${record.lasterror ? html`<pre class="error">${record.lasterror}</pre>` : 'none'}</dd>`
    : html`<dt>Last error</dt><dd>${record.lasterror ? 'yes (the account sees it)' : 'none'}</dd>`
}
</dl>`;
}

/** `GET /console/runs/<id>`: one run, its inputs and outputs (secrets masked) and its step timeline. */
export function runPage(deps: RunPageDeps) {
  return new Hono<AppEnv>().get('/runs/:id', async (c) => {
    const id = c.req.param('id');
    checkRunId(id);
    const principal = c.get('principal');
    const now = Date.now();
    // The events first: one added while the record is read then comes again live, and only
    // refreshes the page once more.
    const notes = await readRunNotes(deps.runEvents, id);
    const stored = await deps.executions.get(id);
    if (!stored || !mayViewRun(principal, stored)) throw new ApiError('NOT_FOUND', 'No such run.');
    const record = deps.maskSealedInputs ? await deps.maskSealedInputs(stored) : stored;
    const history = await deps.executions.stepHistory(id);
    const running = record.status === 'RUNNING';
    const page = Number(c.req.query('steps') ?? '1') || 1;
    const timeline = stepTimeline(history, {
      page,
      now,
      running,
      children: notes.children,
      withErrors: mayReadData(principal),
      pageLink: (n) => `${runPath(id)}?steps=${n}#steps`,
    });
    const terminate =
      running && mayTerminateRun(principal, record)
        ? html`<form class="actions" method="get" action="${runPath(id)}/terminate"><button type="submit" class="danger">Terminate</button></form>`
        : '';
    const redrive =
      REDRIVABLE_STATUSES.includes(record.status) && mayRedriveRun(principal, record)
        ? html`<form class="actions" method="get" action="${runPath(id)}/redrive"><button type="submit">Redrive</button></form>`
        : '';
    const live = `${runPath(id)}/live${notes.lastEventId ? `?after=${notes.lastEventId}` : ''}`;
    const body = html`<div id="run" class="run"${running ? html` data-live="${live}"` : ''}>
<p class="run-id">Run <code>${id}</code></p>
${terminate}${redrive}
${facts(record, principal, now, notes)}
${
  mayReadData(principal)
    ? html`${valuesTable('Inputs', shownInputs(record, deps.cipher))}
${running ? '' : valuesTable('Outputs', shownOutputs(record, deps.cipher))}`
    : html`<p>A run's inputs, outputs and errors are its account's: operators see what <code>/ops</code> shows, and the steps.</p>`
}
<h2 id="steps">Steps</h2>
${timeline}
</div>`;
    return c.html(pageLayout({ title: `Run of ${record.choreo}`, section: 'runs', signedIn: { principal, csrf: c.get('consoleSession').csrf }, body }));
  });
}
