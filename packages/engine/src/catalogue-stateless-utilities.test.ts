import { fileURLToPath } from 'node:url';
import { beforeAll, describe, it } from 'vitest';
import { createStepLibrary } from '@ces/steps';
import { type Catalogue, loadCatalogue } from '@ces/catalogue';
import { statelessUtilityEdgeCases } from './catalogue-cases-stateless.ts';
import { expectCaseOutcome, runCatalogueChoreo } from './catalogue-run-for-test.ts';
import type { RunOutcome } from './run-choreo.ts';

/**
 * The original's stateless Utilities run through the engine beyond their one case in
 * catalogue-choreos.test.ts: edges of each input, Unicode, malformed data ending the run as failed.
 */

let catalogue: Catalogue;
const steps = createStepLibrary();
function run(id: string, provided: Record<string, string>): Promise<RunOutcome> {
  return runCatalogueChoreo(catalogue, steps, `/Library/Utilities/${id}`, provided);
}

beforeAll(async () => {
  catalogue = await loadCatalogue(fileURLToPath(new URL('../../../choreos', import.meta.url)), steps);
});

describe('stateless Utilities of the original', () => {
  it.each(Object.entries(statelessUtilityEdgeCases()))('%s', async (_, testCase) => {
    const outcome = await run(testCase.id, testCase.inputs);
    expectCaseOutcome(outcome, testCase);
  });
});
