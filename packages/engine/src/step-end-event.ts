import type { StepAttempt } from './run-step.ts';

/** A step that ran (for metrics and the execution's step history). */
export interface StepEndEvent {
  /** The top-level step it ran in (itself, or the block holding it). */
  index: number;
  /** The step's id. */
  id: string;
  /** Where it ran: its id at the top level; inside a block its address (`pages[3].fetch`, see BlockRun). */
  address: string;
  /** Inside a loop: the index of the innermost iteration it ran in. */
  iteration?: number;
  kind: string;
  durationMs: number;
  ok: boolean;
  /**
   * It asked for its run to be suspended (a durable wait): it has not ended, and runs again when
   * the run resumes. Told for the attempts that failed before it asked, if any.
   */
  suspended?: true;
  /** Its attempts, in order (retries add one each). */
  attempts: readonly StepAttempt[];
}
