import type { AdminIo } from './admin-io.ts';

export interface Progress {
  advance(count?: number): void;
  done(): void;
}

/** Below this many items a command is quick enough to need no progress. */
export const PROGRESS_THRESHOLD = 50;

/**
 * Progress on stderr while a command works through many items: one redrawn line on a terminal,
 * otherwise a line at each quarter, so that logs of scripted runs stay short.
 */
export function startProgress(io: AdminIo, label: string, total: number, threshold = PROGRESS_THRESHOLD): Progress {
  if (total < threshold) return { advance() {}, done() {} };
  let current = 0;
  let lastDraw = 0;
  let lastQuarter = 0;
  const line = () => `${label}: ${current}/${total}`;
  return {
    advance(count = 1) {
      current = Math.min(total, current + count);
      if (io.errIsTerminal) {
        const now = Date.now();
        if (now - lastDraw >= 100 || current === total) {
          lastDraw = now;
          io.err(`${line()}\r`);
        }
        return;
      }
      const quarter = Math.floor((current / total) * 4);
      if (quarter > lastQuarter) {
        lastQuarter = quarter;
        io.err(line());
      }
    },
    done() {
      if (io.errIsTerminal) io.err(`${line()}   `);
    },
  };
}
