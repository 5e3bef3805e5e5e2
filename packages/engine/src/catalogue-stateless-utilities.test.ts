import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { bindInputs, createStepLibrary, loadCatalogue } from '@ces/choreos';
import type { Catalogue } from '@ces/choreos';
import { statelessUtilityEdgeCases } from './catalogue-cases-stateless.ts';
import { runChoreo } from './run-choreo.ts';
import type { EngineHooks, RunOutcome } from './run-choreo.ts';

/**
 * The original's stateless Utilities run through the engine beyond their one case in
 * catalogue-choreos.test.ts: edges of each input, Unicode, malformed data ending the run as failed.
 */

let catalogue: Catalogue;
const steps = createStepLibrary();
const noHooks: EngineHooks = { beforeStep: () => undefined, afterStep: async () => undefined, afterProgress: async () => undefined };

async function run(id: string, provided: Record<string, string>): Promise<RunOutcome> {
  const entry = catalogue.get(`/Library/Utilities/${id}`);
  if (entry === undefined || !entry.valid) throw new Error(`${id} is not a valid Choreo`);
  const bound = bindInputs(entry.definition, provided);
  if (!bound.ok) throw new Error(`${id}: missing ${bound.missing.join(', ')}`);
  return runChoreo({ definition: entry.definition, inputs: bound.inputs, steps, hooks: noHooks });
}

beforeAll(async () => {
  catalogue = await loadCatalogue(fileURLToPath(new URL('../../../choreos', import.meta.url)), steps);
});

describe('stateless Utilities of the original', () => {
  it.each(Object.entries(statelessUtilityEdgeCases()))('%s', async (_, testCase) => {
    const outcome = await run(testCase.id, testCase.inputs);
    if (testCase.error !== undefined) {
      expect(outcome.kind).toBe('failed');
      expect(outcome.kind === 'failed' ? outcome.error : '').toMatch(testCase.error);
      return;
    }
    expect(outcome.kind === 'failed' ? outcome.error : outcome.kind).toBe('completed');
    expect(outcome.checkpoint.outputs).toEqual(testCase.outputs);
  });
});
