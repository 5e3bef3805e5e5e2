import type { StopReason } from '@ces/engine';

/** One run of an execution under way in this worker. */
export interface ActiveRun {
  readonly executionId: string;
  /** Aborted to interrupt a wait in progress (termination requested, time limit, shutdown). */
  readonly controller: AbortController;
  /** Why the run stops at its next step boundary, once something has said so. */
  stop?: StopReason;
  /** Settles when this run's `process` call is over. */
  readonly done: Promise<void>;
  /** Its steps are over: it no longer answers a termination request or an interruption. */
  stepsOver(): void;
}

/** The runs under way in this worker, by execution, so that they can be stopped from outside. */
export interface ActiveRuns {
  /**
   * Runs `work` as the active run of the execution, stopped before its first step when its
   * termination was requested already.
   */
  track<T>(executionId: string, terminationRequested: boolean, work: (run: ActiveRun) => Promise<T>): Promise<T>;
  /** The active run of the execution, if any (a newer take by this worker replaces an older one). */
  current(executionId: string): ActiveRun | undefined;
  /** Stops the run at its next step boundary; a wait in progress stops now. */
  stop(executionId: string, reason: StopReason): void;
  /** Interrupts every run, waits included. */
  interruptAll(reason: StopReason): void;
  ids(): string[];
}

export function createActiveRuns(): ActiveRuns {
  const active = new Map<string, ActiveRun>();

  return {
    async track(executionId, terminationRequested, work) {
      let settle = () => {};
      const run: ActiveRun = {
        executionId,
        controller: new AbortController(),
        done: new Promise<void>((resolve) => (settle = resolve)),
        stepsOver() {
          // The same execution may have been taken again by this worker meanwhile; keep that run.
          if (active.get(executionId) === run) active.delete(executionId);
        },
      };
      if (terminationRequested) run.stop = 'termination-requested';
      active.set(executionId, run);
      try {
        return await work(run);
      } finally {
        run.stepsOver();
        settle();
      }
    },

    current: (executionId) => active.get(executionId),

    stop(executionId, reason) {
      const run = active.get(executionId);
      if (!run) return;
      run.stop = reason;
      run.controller.abort(reason);
    },

    interruptAll(reason) {
      for (const run of active.values()) run.controller.abort(reason);
    },

    ids: () => [...active.keys()],
  };
}
