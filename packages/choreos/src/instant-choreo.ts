import type { ChoreoDefinition } from './definition.ts';
import type { StepLibrary } from './step-kind.ts';

/**
 * A Choreo whose every step is an instant kind without retries (a retry waits its backoff): a run
 * of it finishes in well under a millisecond and touches nothing outside itself, so running it
 * once more, or for a run that has meanwhile ended, is harmless. Workers use that to run it
 * before they take the execution, and to record its start and its end in one operation.
 */
export function isInstantChoreo(definition: ChoreoDefinition, steps: StepLibrary): boolean {
  // A block (a loop above all) may run for long: its iterations are checkpointed, so never instant.
  return definition.steps.every((step) => 'kind' in step && step.retry === undefined && steps.get(step.kind)?.instant === true);
}
