import type { StepEvent, StepHistory } from '@ces/store';
import { html } from 'hono/html';
import type { Html } from './console-html.ts';
import { runPath } from './console-path.ts';
import { formatDuration, formatTime } from './console-times.ts';

/** Rows of the timeline on one page: past it, the timeline is paged. */
export const TIMELINE_PAGE_ROWS = 200;
/** The bars' scale: positions and widths are thousandths of the run's span. */
const SCALE = 1000;

interface Span {
  start: number;
  end: number;
}

function spanOf(events: readonly StepEvent[], now: number, running: boolean): Span {
  let start = Number.POSITIVE_INFINITY;
  let end = 0;
  for (const event of events) {
    if (event.start < start) start = event.start;
    if (event.end > end) end = event.end;
  }
  if (running) end = Math.max(end, now);
  return { start, end: Math.max(end, start + 1) };
}

/**
 * One row's bar on the run's time axis, as an SVG shape: its sizes are attributes, which the
 * console's Content-Security-Policy allows where it refuses inline styles.
 */
function bar(event: StepEvent, span: Span): Html {
  const total = span.end - span.start;
  const x = Math.min(SCALE - 1, Math.floor(((event.start - span.start) / total) * SCALE));
  const width = Math.max(1, Math.min(SCALE - x, Math.round(((event.end - event.start) / total) * SCALE)));
  return html`<svg class="bar" viewBox="0 0 ${SCALE} 10" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect class="bar-${event.outcome}" x="${x}" y="0" width="${width}" height="10"></rect></svg>`;
}

function row(event: StepEvent, span: Span, child: string | undefined, withErrors: boolean): Html {
  return html`<tr>
<td><code>${event.address}</code>${child ? html`<br><a href="${runPath(child)}">child run <code>${child.slice(0, 8)}…</code></a>` : ''}</td>
<td><span class="outcome outcome-${event.outcome}">${event.outcome}</span>${event.error && withErrors ? html`<br><span class="error">${event.error}</span>` : ''}</td>
<td>${event.attempt}</td>
<td>${event.host}</td>
<td>${formatDuration(event.durationMs)}</td>
<td class="bar-cell">${bar(event, span)}</td>
</tr>`;
}

/**
 * The step history as a table, one row per step attempt and loop iteration, each with a bar on
 * the run's time axis; TIMELINE_PAGE_ROWS rows a page. What the history dropped past its bound is
 * said where it was.
 */
export function stepTimeline(
  history: StepHistory,
  options: {
    page: number;
    now: number;
    running: boolean;
    /** Child execution ids by the address of the step that started each. */
    children: ReadonlyMap<string, string>;
    /** A failed step's error, which may quote the run's data: its account's credentials only. */
    withErrors: boolean;
    pageLink: (page: number) => string;
  },
): Html {
  const { events, dropped } = history;
  if (events.length === 0) return html`<p>No step has ended yet.</p>`;
  const pages = Math.ceil(events.length / TIMELINE_PAGE_ROWS);
  const page = Math.min(Math.max(options.page, 1), pages);
  const first = (page - 1) * TIMELINE_PAGE_ROWS;
  const shown = events.slice(first, first + TIMELINE_PAGE_ROWS);
  const span = spanOf(events, options.now, options.running);
  const rows: Html[] = [];
  for (const [index, event] of shown.entries()) {
    if (dropped && first + index === dropped.after) {
      rows.push(html`<tr class="dropped"><td colspan="6">${dropped.count} more step runs are not kept here.</td></tr>`);
    }
    rows.push(row(event, span, options.children.get(event.address), options.withErrors));
  }
  const pager =
    pages > 1
      ? html`<nav class="pages" aria-label="Pages of the step timeline"><span>Rows ${first + 1}–${first + shown.length} of ${events.length}</span> ${
          page > 1 ? html`<a href="${options.pageLink(page - 1)}">Earlier steps</a> ` : ''
        }${page < pages ? html`<a href="${options.pageLink(page + 1)}">Later steps</a>` : ''}</nav>`
      : '';
  return html`<table class="timeline">
<caption>From ${formatTime(span.start)} to ${formatTime(span.end)} (${formatDuration(span.end - span.start)})</caption>
<thead><tr><th scope="col">Step</th><th scope="col">Outcome</th><th scope="col">Attempt</th><th scope="col">Host</th><th scope="col">Duration</th><th scope="col">On the time axis</th></tr></thead>
<tbody>${rows}</tbody>
</table>${pager}`;
}
