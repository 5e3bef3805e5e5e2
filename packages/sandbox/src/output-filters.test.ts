import { describe, expect, it } from 'vitest';
import { applyOutputFilters, OutputFilterError } from '@ces/language';
import { createSandbox } from './sandbox.ts';

const sandbox = createSandbox({ timeLimitMs: 500, maxResultLength: 10_000, maxHeapMb: 64 });

const outputs = {
  Response: '{"items":[{"id":1,"name":"a"},{"id":2,"name":"b"}],"total":2}',
  Xml: '<r><item id="1">a</item><item id="2">b</item></r>',
  Plain: 'just text',
};

describe('applyOutputFilters', () => {
  it('adds JSONPath and XPath results beside the outputs', async () => {
    expect(
      await applyOutputFilters(
        outputs,
        [
          { name: 'total', path: '$.total', variable: 'Response' },
          { name: 'names', path: '$.items[*].name', variable: 'Response' },
          { name: 'first', path: '$.items[0]', variable: 'Response' },
          { name: 'secondId', path: '/r/item[2]/@id', variable: 'Xml' },
          { name: 'count', path: 'count(//item)', variable: 'Xml' },
        ],
        sandbox,
      ),
    ).toEqual({ ...outputs, total: '2', names: '["a","b"]', first: '{"id":1,"name":"a"}', secondId: '2', count: '2' });
  });

  it.each([
    [{ name: 'x', path: '$.a', variable: 'Nope' }, 'output filter "x": there is no output "Nope"'],
    [{ name: 'x', path: '$.a', variable: 'Plain' }, 'output filter "x": output "Plain" is neither XML nor JSON'],
    [{ name: 'x', path: '/r/[', variable: 'Xml' }, 'output filter "x": XPath "/r/[" is not valid: XPath parse error'],
    [{ name: 'x', path: '$..[?(@.id)]', variable: 'Response' }, 'output filter "x": JSONPath'],
  ])('refuses %j', async (filter, message) => {
    const refusal = applyOutputFilters(outputs, [filter], sandbox);
    await expect(refusal).rejects.toThrow(OutputFilterError);
    await expect(refusal).rejects.toThrow(message);
  });

  it("fails when the filters' results together pass what may be stored", async () => {
    const big = JSON.stringify({ text: 'x'.repeat(3 * 1024 * 1024) });
    const six = Array.from({ length: 6 }, (_, i) => ({ name: `copy${i}`, path: '$.text', variable: 'Big' }));
    const refusal = applyOutputFilters({ Big: big }, six, createSandbox());
    await expect(refusal).rejects.toThrow(/output filter "copy5": the filters' results pass 16777216 characters in all/);
  });

  it('stops a query that would take the worker for seconds, and fails the filter', async () => {
    // Compares every element with every element: quadratic in the document, seconds for 8 KB.
    const xml = `<r>${'<i>x</i>'.repeat(2000)}</r>`;
    const refusal = applyOutputFilters({ Xml: xml }, [{ name: 'slow', path: '//*[count(//*) > 0]', variable: 'Xml' }], sandbox);
    await expect(refusal).rejects.toThrow('output filter "slow": the XPath query ran longer than 500 ms');
    // A deep document and recursive descents: billions of paths, and gigabytes, were it not stopped.
    const deep = `${'['.repeat(300)}${']'.repeat(300)}`;
    const deepRefusal = applyOutputFilters({ Json: deep }, [{ name: 'deep', path: '$..*..*..*', variable: 'Json' }], sandbox);
    await expect(deepRefusal).rejects.toThrow(/output filter "deep": the JSONPath query (ran longer than 500 ms|needed more memory)/);
  });
});
