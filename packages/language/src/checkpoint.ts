/**
 * A run's progress as the engine produces it and the store keeps it, so that a run resumes where it
 * stopped. Declared here, below both, so that neither reaches into the other for it.
 */

/**
 * A run's progress after its completed steps: the top-level step it resumes at, the results so far
 * (by step id) and the outputs. What is stored of it is each result once, as an entry of the run's
 * progress (CheckpointWrite), never the whole map again; resumePoint reads it back.
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
 * A top-level checkpoint as it is stored: the results completed at the top level since the last
 * one written, each an entry of the same progress by its address (the step's or block's id, and
 * the ids of the steps inside a block that is not a loop, whose results join the top level's), and
 * the outputs so far. Appended like a block's entries, so its cost does not grow with the number
 * of steps completed before it.
 */
export interface CheckpointWrite {
  entries: readonly ProgressEntry[];
  outputs: Record<string, string>;
}
