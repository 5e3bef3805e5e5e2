import type { RunEvent } from '@ces/client';
import type { CliIo } from './cli-io.ts';
import { formatDuration, isoTime } from './values.ts';

const SPINNER = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
const MARK = { succeeded: '✓', failed: '✗', stopped: '■' } as const;
const WAITED_FOR = { time: 'a time', callback: 'a call back', child: 'child run' } as const;
const CLEAR_LINE = '\r\x1b[2K';

export interface RunDisplay {
  show(event: RunEvent): void;
  /** Removes the live line; the display writes nothing after. */
  close(): void;
}

/** `fetch`, or `each[3].post (attempt 2)`: where a step ran, and which attempt when not the first. */
function place(event: { address: string; attempt?: number | string }): string {
  return Number(event.attempt ?? 1) > 1 ? `${event.address} (attempt ${event.attempt})` : event.address;
}

/** The line that tells how an event went, or undefined for those that need none. */
export function eventLine(event: RunEvent): string | undefined {
  switch (event.type) {
    case 'step.ended': {
      const error = event.error ? `  ${event.outcome}: ${event.error}` : event.outcome === 'succeeded' ? '' : `  ${event.outcome}`;
      return `${MARK[event.outcome]} ${place(event)}  ${formatDuration(Number(event.durationMs))}${error}`;
    }
    case 'wait.started':
      return `… ${event.address}  waiting for ${WAITED_FOR[event.waitFor]}${event.child ? ` ${event.child}` : ''}${event.until ? ` until ${isoTime(event.until)}` : ''}`;
    case 'child.started':
      return `↳ ${event.address}  started child run ${event.child}`;
    default:
      return undefined;
  }
}

/**
 * Shows a run's events on stderr as its steps end, one line each. On a terminal a live line under
 * them tells which step runs now and for how long, redrawn in place.
 */
export function createRunDisplay(io: CliIo, options: { now?: () => number; redrawMs?: number } = {}): RunDisplay {
  const now = options.now ?? Date.now;
  const live = io.errIsTerminal;
  /** Steps started and not ended, by address: parallel branches run several at once. */
  const running = new Map<string, { label: string; since: number }>();
  let frame = 0;
  let closed = false;
  let drawn = false;

  const liveLine = () => {
    const current = [...running.values()].at(-1);
    const spinner = SPINNER[frame % SPINNER.length];
    if (!current) return `${spinner} running`;
    const more = running.size > 1 ? ` (+${running.size - 1} more)` : '';
    return `${spinner} ${current.label}  ${formatDuration(now() - current.since)}${more}`;
  };
  const draw = () => {
    if (closed || !live) return;
    const line = liveLine();
    // A pseudo-terminal without a size says 0 columns.
    const width = (io.errColumns || 80) - 1;
    io.err(`${CLEAR_LINE}${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    drawn = true;
  };
  const timer = live
    ? setInterval(() => {
        frame += 1;
        draw();
      }, options.redrawMs ?? 100)
    : undefined;
  timer?.unref();

  const print = (line: string) => {
    io.err(`${live && drawn ? CLEAR_LINE : ''}${line}\n`);
    drawn = false;
  };

  return {
    show(event) {
      if (closed) return;
      if (event.type === 'step.started') running.set(event.address, { label: place(event), since: now() });
      if (event.type === 'step.ended') running.delete(event.address);
      if (event.type === 'execution.ended') {
        this.close();
        return;
      }
      const line = eventLine(event);
      if (line) print(line);
      draw();
    },
    close() {
      if (closed) return;
      if (timer) clearInterval(timer);
      if (live && drawn) io.err(CLEAR_LINE);
      closed = true;
    },
  };
}
