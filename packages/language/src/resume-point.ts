import type { ChoreoDefinition } from './definition.ts';
import { leadingId } from './progress-address.ts';
import { walkDefinition } from './walk-definition.ts';

/** Where a run resumes, read from its progress: the top-level step, the results before it, and the entries of that step. */
export interface ResumeFromLog<Value> {
  /** The first top-level step (or block) without a result among the entries. */
  nextStep: number;
  /** The results of the completed top-level steps and of the steps inside them, by id. */
  results: Record<string, Value>;
  /** The entries of the step at `nextStep` (a block's steps and iterations, a wait's due time…), by address. */
  progress: Map<string, Value>;
}

/**
 * Reads a run's progress back as the point it resumes at. Every completed top-level step or block
 * has an entry under its id, so the first without one is where the run goes on; the results before
 * it are the entries whose address is an id alone (a top-level step's, or a step's inside a block
 * that is not a loop, whose results join the top level's) outside that step; the entries that start
 * with the id of a node inside that step are its progress. What else the log holds (the
 * iterations of a loop that completed) is what those results stand for, and is left out.
 *
 * `earlierResults`: the results map a record checkpointed by an earlier version keeps (its field
 * `results`), read as entries of the log written before the others.
 */
export function resumePoint<Value>(
  definition: Pick<ChoreoDefinition, 'steps'>,
  log: Iterable<readonly [string, Value]>,
  earlierResults?: Readonly<Record<string, Value>>,
): ResumeFromLog<Value> {
  const entries = new Map<string, Value>(earlierResults === undefined ? [] : Object.entries(earlierResults));
  for (const [address, value] of log) entries.set(address, value);
  const { steps } = definition;
  let nextStep = 0;
  while (nextStep < steps.length && entries.has((steps[nextStep] as { id: string }).id)) nextStep++;
  const current = new Set<string>();
  const later = new Set<string>();
  walkDefinition(steps.slice(nextStep, nextStep + 1), (node) => current.add(node.id));
  walkDefinition(steps.slice(nextStep + 1), (node) => later.add(node.id));
  const results: Record<string, Value> = {};
  const progress = new Map<string, Value>();
  for (const [address, value] of entries) {
    const id = leadingId(address);
    if (current.has(id)) progress.set(address, value);
    else if (address === id && !later.has(id)) results[id] = value;
  }
  return { nextStep, results, progress };
}
