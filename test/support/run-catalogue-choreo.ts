import type { Catalogue } from '@ces/catalogue';
import { bindInputs, type StepLibrary } from '@ces/language';
import { runChoreo } from '@ces/engine';
import type { RunOutcome } from '@ces/engine';

export type EngineHooks = Parameters<typeof runChoreo>[0]['hooks'];

const noHooks: EngineHooks = { beforeStep: () => undefined, afterStep: async () => undefined, afterProgress: async () => undefined };

/**
 * Runs a catalogue Choreo to its end in this process, as a worker would, with these inputs bound
 * to it. Throws, as the API would refuse the run, when a required input is missing.
 */
export async function runCatalogueChoreo(
  catalogue: Catalogue,
  steps: StepLibrary,
  id: string,
  provided: Readonly<Record<string, string>>,
  hooks: EngineHooks = noHooks,
): Promise<RunOutcome> {
  const entry = catalogue.get(id);
  if (entry === undefined || !entry.valid)
    throw new Error(`${id} is not a valid Choreo: ${entry !== undefined && !entry.valid ? entry.problems.join('; ') : 'missing'}`);
  const bound = bindInputs(entry.definition, provided);
  if (!bound.ok) throw new Error(`${id}: Required input missing: ${bound.missing.join(', ')}`);
  return runChoreo({ definition: entry.definition, inputs: bound.inputs, steps, hooks });
}
