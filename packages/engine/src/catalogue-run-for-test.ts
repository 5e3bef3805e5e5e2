import { bindInputs, type StepLibrary } from '@ces/language';
import type { Catalogue } from '@ces/catalogue';
import { expect } from 'vitest';
import type { CatalogueCase } from './catalogue-cases/catalogue-case.ts';
import { runChoreo } from './run-choreo.ts';
import type { EngineHooks, RunOutcome } from './run-choreo.ts';

const noHooks: EngineHooks = { beforeStep: () => undefined, afterStep: async () => undefined, afterProgress: async () => undefined };

/** Runs a catalogue Choreo to its end in this process, as a worker would, with these inputs bound to it. */
export async function runCatalogueChoreo(
  catalogue: Catalogue,
  steps: StepLibrary,
  id: string,
  provided: Record<string, string>,
  hooks: EngineHooks = noHooks,
): Promise<RunOutcome> {
  const entry = catalogue.get(id);
  if (entry === undefined || !entry.valid)
    throw new Error(`${id} is not a valid Choreo: ${entry !== undefined && !entry.valid ? entry.problems.join('; ') : 'missing'}`);
  const bound = bindInputs(entry.definition, provided);
  if (!bound.ok) throw new Error(`${id}: missing ${bound.missing.join(', ')}`);
  return runChoreo({ definition: entry.definition, inputs: bound.inputs, steps, hooks });
}

/** A case with an error must have failed with it; any other must have completed with its outputs. */
export function expectCaseOutcome(outcome: RunOutcome, testCase: Pick<CatalogueCase, 'outputs' | 'error'>): void {
  if (testCase.error !== undefined) {
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind === 'failed' ? outcome.error : '').toMatch(testCase.error);
    return;
  }
  expect(outcome.kind === 'failed' ? outcome.error : outcome.kind).toBe('completed');
  expect(outcome.checkpoint.outputs).toEqual(testCase.outputs);
}
