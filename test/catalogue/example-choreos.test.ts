import { type Catalogue, loadCatalogue } from '@ces/catalogue';
import type { RunOutcome } from '@ces/engine';
import { createStepLibrary } from '@ces/steps';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCatalogueChoreo } from '../support/run-catalogue-choreo.ts';
import { CATALOGUE_DIR } from '../support/stack.ts';

/** The Choreos of /Library/Examples, run through the engine with the real step library. */

let catalogue: Catalogue;
const steps = createStepLibrary({ http: { allowPrivateNetworks: true, timeoutMs: 5000, maxResponseBytes: 1024 * 1024 } });
function run(name: string, provided: Record<string, string>): Promise<RunOutcome> {
  return runCatalogueChoreo(catalogue, steps, `/Library/Examples/${name}`, provided);
}

async function outputsOf(name: string, inputs: Record<string, string>): Promise<Record<string, string>> {
  const outcome = await run(name, inputs);
  if (outcome.kind !== 'completed')
    throw new Error(`${name} did not complete: ${outcome.kind === 'failed' ? outcome.error : outcome.kind === 'stopped' ? outcome.reason : 'suspended'}`);
  return outcome.checkpoint.outputs;
}

beforeAll(async () => {
  catalogue = await loadCatalogue(CATALOGUE_DIR, steps);
});

describe('/Library/Examples', () => {
  it('are all valid and all tested here', () => {
    const examples = catalogue.list().filter((entry) => entry.id.startsWith('/Library/Examples/'));
    // CollectPages, FetchAll and FetchWithFallback are tested in packages/engine/src/control-flow-examples.test.ts,
    // EncodeViaChild (a child execution needs a worker) in test/e2e/sub-choreos.test.ts,
    // WaitForApproval in packages/engine/src/durable-wait.test.ts (and end to end in test/e2e/worker-callbacks.test.ts).
    expect(examples.map((entry) => [entry.id, entry.valid])).toEqual([
      ['/Library/Examples/ClassifyNumber', true],
      ['/Library/Examples/CollectPages', true],
      ['/Library/Examples/EncodeViaChild', true],
      ['/Library/Examples/FetchAll', true],
      ['/Library/Examples/FetchWithFallback', true],
      ['/Library/Examples/SummarizeOrders', true],
      ['/Library/Examples/WaitForApproval', true],
    ]);
  });

  describe('SummarizeOrders (a code step)', () => {
    it('sums the amounts, lists the distinct customers sorted, and names the largest order', async () => {
      const orders = [
        { id: 'A1', customer: 'Zoe', amount: 12.5 },
        { id: 'A2', customer: 'Adam', amount: 40 },
        { id: 'A3', customer: 'Zoe', amount: 7.5 },
        { id: 'A4', customer: 'Maria', amount: 40 },
      ];
      expect(await outputsOf('SummarizeOrders', { Orders: JSON.stringify(orders) })).toEqual({
        Total: '100',
        Customers: '["Adam","Maria","Zoe"]',
        Largest: 'A2',
      });
    });

    it('summarizes no orders', async () => {
      expect(await outputsOf('SummarizeOrders', { Orders: '[]' })).toEqual({ Total: '0', Customers: '[]', Largest: '' });
    });

    it.each([
      ['not json', /^summarize: the code failed: Error: Orders is not JSON: /],
      ['{"id": 1}', /^summarize: the code failed: Error: Orders must be a JSON array \(line 7, column \d+\)$/],
      ['[{"id": "A1", "customer": "Ada", "amount": "12"}]', /^summarize: the code failed: Error: order 0 has no numeric amount/],
      ['[null]', /^summarize: the code failed: Error: order 0 is not an object/],
    ])('fails the run on bad orders: %s', async (orders, error) => {
      const outcome = await run('SummarizeOrders', { Orders: orders });
      expect(outcome.kind).toBe('failed');
      expect(outcome.kind === 'failed' ? outcome.error : '').toMatch(error);
    });
  });

  describe('ClassifyNumber (an expression)', () => {
    it.each([
      ['-3', 'negative'],
      ['-0.001', 'negative'],
      ['-1e-9', 'negative'],
      ['0', 'zero'],
      ['-0', 'zero'],
      ['0.000', 'zero'],
      ['+0e5', 'zero'],
      ['42', 'positive'],
      ['  7  ', 'positive'],
      ['+7', 'positive'],
      ['.5', 'positive'],
      ['5.', 'positive'],
      ['1.5E3', 'positive'],
      ['1e999', 'positive'],
      ['', 'not a number'],
      ['abc', 'not a number'],
      ['-', 'not a number'],
      ['.', 'not a number'],
      ['1e', 'not a number'],
      ['e5', 'not a number'],
      ['1.2.3', 'not a number'],
      ['1-2', 'not a number'],
      ['--1', 'not a number'],
      ['0x10', 'not a number'],
      ['Infinity', 'not a number'],
      ['NaN', 'not a number'],
      ['1,000', 'not a number'],
      ['1 000', 'not a number'],
    ])('%j is %s', async (number, expected) => {
      expect(await outputsOf('ClassifyNumber', { Number: number })).toEqual({ Class: expected });
    });
  });
});
