import { describe, expect, it } from 'vitest';
import { applyOutputFilters, OutputFilterError } from './output-filters.ts';

const outputs = {
  Response: '{"items":[{"id":1,"name":"a"},{"id":2,"name":"b"}],"total":2}',
  Xml: '<r><item id="1">a</item><item id="2">b</item></r>',
  Plain: 'just text',
};

describe('applyOutputFilters', () => {
  it('adds JSONPath and XPath results beside the outputs', () => {
    expect(
      applyOutputFilters(outputs, [
        { name: 'total', path: '$.total', variable: 'Response' },
        { name: 'names', path: '$.items[*].name', variable: 'Response' },
        { name: 'first', path: '$.items[0]', variable: 'Response' },
        { name: 'secondId', path: '/r/item[2]/@id', variable: 'Xml' },
        { name: 'count', path: 'count(//item)', variable: 'Xml' },
      ]),
    ).toEqual({ ...outputs, total: '2', names: '["a","b"]', first: '{"id":1,"name":"a"}', secondId: '2', count: '2' });
  });

  it.each([
    [{ name: 'x', path: '$.a', variable: 'Nope' }, 'output filter "x": there is no output "Nope"'],
    [{ name: 'x', path: '$.a', variable: 'Plain' }, 'output filter "x": output "Plain" is neither XML nor JSON'],
    [{ name: 'x', path: '/r/[', variable: 'Xml' }, 'output filter "x": XPath "/r/[" is not valid: XPath parse error'],
    [{ name: 'x', path: '$..[?(@.id)]', variable: 'Response' }, 'output filter "x": JSONPath'],
  ])('refuses %j', (filter, message) => {
    expect(() => applyOutputFilters(outputs, [filter])).toThrow(OutputFilterError);
    expect(() => applyOutputFilters(outputs, [filter])).toThrow(message);
  });
});
