/**
 * What the engine tells as it goes, beside what it hands to be stored: a step's or an
 * iteration's start, an iteration's end, a wait begun. A step's end is told by `onStepEnd`, with
 * its attempts. The caller makes them run events (the engine knows nothing of where they go).
 * Times are epoch milliseconds.
 */
export type ProgressEvent =
  | {
      type: 'step.started';
      /** The top-level step it runs in (itself, or the block holding it). */
      index: number;
      id: string;
      address: string;
      iteration?: number;
      attempt: number;
      time: number;
      /** A pure step (pure-steps.ts): its start may wait for the next write, as its result does. */
      pure: boolean;
    }
  | { type: 'iteration.started'; index: number; address: string; iteration: number; time: number }
  | {
      type: 'iteration.ended';
      index: number;
      address: string;
      iteration: number;
      time: number;
      outcome: 'succeeded' | 'failed' | 'stopped';
      durationMs: number;
      error?: string;
    }
  | {
      type: 'wait.started';
      index: number;
      address: string;
      waitFor: 'time' | 'callback' | 'child';
      /** When the wait is due, when it is bounded (waiting for a child: when its step times out). */
      untilMs?: number;
      /** Waiting for a child execution: its id. */
      child?: string;
      time: number;
      /** A wait in the worker (too short to suspend the run), told as it begins rather than with a suspension. */
      inWorker?: boolean;
    };

/**
 * Told each event as it happens. A promise it returns is waited for before the run goes on: the
 * start of a step with an effect is then stored before the effect.
 */
export type ProgressListener = (event: ProgressEvent) => void | Promise<void>;
