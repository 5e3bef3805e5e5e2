import type { ChoreoDefinition } from './definition.ts';
import { hasSecretOutputs } from './secret-outputs.ts';
import type { StepKind, StepLibrary } from './step-kind.ts';

/** `{{inputs.Name}}` and nothing else: an argument that is exactly one input. */
const INPUT_TEMPLATE = /^\{\{\s*inputs\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

/**
 * A Choreo that declares no secret output and whose every step is pure without retries (a retry waits its backoff): a run
 * of it touches nothing outside itself, so running it
 * once more, or for a run that has meanwhile ended, is harmless. Workers use that to run it
 * before they take the execution, and to record its start and its end in one operation.
 *
 * A kind that is pure unless some of its arguments are given (`pureUnless`) makes the Choreo
 * instant for the runs whose `inputs` leave those arguments empty; without `inputs` (the
 * catalogue, before any run) such a Choreo may be instant, and each run is checked again.
 */
export function isInstantChoreo(definition: ChoreoDefinition, steps: StepLibrary, inputs?: Readonly<Record<string, string>>): boolean {
  // Outputs declared secret are sealed as a taken run stores them; an instant run's end would record them as they are.
  if (hasSecretOutputs(definition)) return false;
  // A block (a loop above all) may run for long: its iterations are checkpointed, so never instant.
  return definition.steps.every((step) => 'kind' in step && step.retry === undefined && isPureStep(steps.get(step.kind), step.args, inputs));
}

/**
 * Whether a step of `kind` with these (unrendered) arguments is pure (StepKind `pure`): for a kind
 * pure unless some arguments are given, in the run of these `inputs`, or in any run when absent.
 */
export function isPureStep(kind: StepKind | undefined, args: Readonly<Record<string, unknown>>, inputs: Readonly<Record<string, string>> | undefined): boolean {
  if (kind === undefined) return false;
  if (kind.pure === true) return true;
  if (kind.pureUnless === undefined) return false;
  return kind.pureUnless.every((name) => {
    const value = args[name];
    if (value === undefined || value === '') return true;
    const input = typeof value === 'string' ? INPUT_TEMPLATE.exec(value)?.[1] : undefined;
    if (input === undefined) return false;
    return inputs === undefined || (inputs[input] ?? '') === '';
  });
}
