import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

const EXAMPLES_DIR = new URL('../../choreos/Library/Examples/', import.meta.url);

/** Code steps and expressions through the API and a real worker process. */
describe('code steps and expressions in a worker', () => {
  let stack: Stack;
  let catalogue: string;

  beforeAll(async () => {
    catalogue = mkdtempSync(join(tmpdir(), 'ces-catalogue-'));
    mkdirSync(join(catalogue, 'Library', 'Examples'), { recursive: true });
    for (const file of readdirSync(EXAMPLES_DIR)) copyFileSync(new URL(file, EXAMPLES_DIR), join(catalogue, 'Library', 'Examples', file));
    mkdirSync(join(catalogue, 'Library', 'Test'), { recursive: true });
    writeFileSync(
      join(catalogue, 'Library', 'Test', 'Loop.json'),
      JSON.stringify({
        description: 'Runs code that never ends.',
        outputs: { Before: { description: 'Computed before the loop.', value: '{% $string(steps.before.n) %}' } },
        steps: [
          { id: 'before', kind: 'noop', args: { n: '{% 6 * 7 %}' } },
          { id: 'loop', kind: 'code.javascript', args: { code: 'for (;;) {}' } },
        ],
      }),
    );
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1, choreosDir: catalogue });
  });

  afterAll(async () => {
    await stack?.stop();
    rmSync(catalogue, { recursive: true, force: true });
  });

  const run = async (choreo: string, inputs: Record<string, string>) => {
    const body = JSON.stringify({ inputs: Object.entries(inputs).map(([name, value]) => ({ name, value })) });
    const res = await stack.call('POST', `/choreos/Library/${choreo}`, stack.credentials.alice, { body });
    expect(res.status, res.text).toBe(200);
    return res.json() as { output: Record<string, string>; execution: Record<string, string> };
  };

  it('runs SummarizeOrders (a code step) and ClassifyNumber (an expression)', async () => {
    const orders = [
      { id: 'A1', customer: 'Zoe', amount: 12.5 },
      { id: 'A2', customer: 'Adam', amount: 40 },
    ];
    const summary = await run('Examples/SummarizeOrders', { Orders: JSON.stringify(orders) });
    expect(summary.execution.status).toBe('SUCCESS');
    expect(summary.output).toEqual({ Total: '52.5', Customers: '["Adam","Zoe"]', Largest: 'A2' });
    const classified = await run('Examples/ClassifyNumber', { Number: '-2.5' });
    expect(classified.execution.status).toBe('SUCCESS');
    expect(classified.output).toEqual({ Class: 'negative' });
  });

  it('fails a run whose code loops forever at the code limit, and the worker serves the next run', async () => {
    const looping = await run('Test/Loop', {});
    expect(looping.execution.status).toBe('ERROR');
    const stored = (await stack.call('GET', `/choreo-executions/${looping.execution.id}?view=outputs`, stack.credentials.alice)).json();
    expect(stored.execution.lasterror).toMatch(/^loop: the code (failed: ran past its time limit of 1000 ms|ran longer than 1250 ms)$/);
    expect(stored.output).toEqual({ Before: '42' });
    const next = await run('Examples/ClassifyNumber', { Number: 'twelve' });
    expect(next.output).toEqual({ Class: 'not a number' });
    expect(next.execution.host).toBe(looping.execution.host);
  });
});
