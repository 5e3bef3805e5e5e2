/**
 * A run's progress as the engine produces it and the store keeps it, so that a run resumes where it
 * stopped. Declared here, below both, so that neither reaches into the other for it.
 */

/**
 * A run's progress after its completed steps: the top-level step it resumes at, the results so far
 * (by step id) and the outputs. What is stored of it is each result once, as an entry of the run's
 * progress (ProgressChanges), never the whole map again; resumePoint reads it back.
 */
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
 * cost of a checkpoint does not grow with the number of iterations.
 */
export interface CheckpointDelta {
  /** The top-level step the entries belong to. */
  nextStep: number;
  entries: readonly ProgressEntry[];
}

/**
 * What a top-level checkpoint changes in the progress: the results completed at the top level
 * since the last one written, each an entry by its address (the step's or block's id, and the ids
 * of the steps inside a block that is not a loop, whose results join the top level's), appended
 * like a block's entries, so that its cost does not grow with the number of steps completed before
 * it; and the addresses of what the completed blocks and waits recorded inside (their steps,
 * iterations, due times), which their results now stand for: deleted, so that the progress holds
 * what a resumed run reads, not every iteration of every loop so far.
 */
export interface ProgressChanges {
  entries: readonly ProgressEntry[];
  superseded: readonly string[];
}
