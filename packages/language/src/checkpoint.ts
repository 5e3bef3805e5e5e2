/**
 * A run's progress as the engine produces it and the store keeps it, so that a run resumes where it
 * stopped. Declared here, below both, so that neither reaches into the other for it.
 */

/** A run's progress after its completed steps: what is stored so that it can resume there. */
export interface Checkpoint {
  nextStep: number;
  results: Record<string, unknown>;
  outputs: Record<string, string>;
}

/** One completed piece of a block's progress: its address (`fetch`, `pages[3]`, `pages[3].fetch`) and its value. */
export type ProgressEntry = readonly [string, unknown];

/**
 * Progress inside a top-level block (a loop, a branch…), in delta form: only what completed since
 * the last one, to be appended to what is stored (never rewriting earlier entries), so that the
 * cost of a checkpoint does not grow with the number of iterations. The full Checkpoint after the
 * block supersedes them all.
 */
export interface CheckpointDelta {
  /** The top-level step the entries belong to: the stored `nextStep` stays at it. */
  nextStep: number;
  entries: readonly ProgressEntry[];
}
