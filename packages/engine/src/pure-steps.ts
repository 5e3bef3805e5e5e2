import { isPureStep, walkDefinition } from '@ces/language';
import type { ChoreoDefinition, StepLibrary } from '@ces/language';

/**
 * The ids of the steps of `definition` that are pure in a run of `inputs` (StepKind `pure`): their
 * results may wait for the run's next write, since running them again cannot be seen outside the
 * run. Step ids are unique across a definition, inside blocks too.
 */
export function pureStepIds(definition: ChoreoDefinition, steps: StepLibrary, inputs: Readonly<Record<string, string>>): ReadonlySet<string> {
  const ids = new Set<string>();
  walkDefinition(definition.steps, (node) => {
    if ('kind' in node && isPureStep(steps.get(node.kind), node.args, inputs)) ids.add(node.id);
  });
  return ids;
}
