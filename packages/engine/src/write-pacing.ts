/** Longest a run's pure work goes unwritten by default: what a crash may make it compute again. */
export const DEFAULT_MAX_UNWRITTEN_MS = 100;

/**
 * Most step attempts whose results and step events (one per attempt) one write carries: a write is
 * one script call, whose arguments Lua unpacks on its C stack (a few thousand values at most).
 */
export const MAX_UNWRITTEN_STEPS = 500;

/**
 * When results held back (those of pure steps, see pure-steps.ts) are written anyway: once
 * `maxUnwrittenMs` have passed since the run's last write, so that a crash recomputes at most that
 * much work, or once MAX_UNWRITTEN_STEPS step attempts have ended since. Shared by the top level and its
 * blocks: either one's write counts.
 */
export class WritePacing {
  private lastWriteMs: number;
  private unwrittenSteps = 0;
  private readonly maxUnwrittenMs: number;
  private readonly now: () => number;

  constructor(maxUnwrittenMs: number, now: () => number = () => performance.now()) {
    this.maxUnwrittenMs = maxUnwrittenMs;
    this.now = now;
    this.lastWriteMs = now();
  }

  /** A step ended after `attempts` attempts: its result and its events wait for the next write. */
  stepEnded(attempts: number): void {
    this.unwrittenSteps += Math.max(1, attempts);
  }

  /** Whether what is held back has waited long enough, or grown large enough, to go with the next boundary. */
  due(): boolean {
    return this.unwrittenSteps >= MAX_UNWRITTEN_STEPS || this.now() - this.lastWriteMs >= this.maxUnwrittenMs;
  }

  /** A write went out: what it carried is safe. */
  wrote(): void {
    this.lastWriteMs = this.now();
    this.unwrittenSteps = 0;
  }
}
