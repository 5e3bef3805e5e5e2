import type { ChoreoCase } from './choreo-case.ts';

const ORDER = '{"order":{"id":7,"items":[{"id":8,"name":"pen"},{"id":9,"name":"ink"}]}}';
const family = 'JSON';

export const cases: ChoreoCase[] = [
  {
    family,
    choreo: 'GetValuesFromJSON',
    name: 'several matches',
    inputs: { JSON: ORDER, Property: 'name' },
    outputs: { Response: '["pen","ink"]', Count: '2' },
  },
  {
    family,
    choreo: 'GetValuesFromJSON',
    name: 'one string answers the string itself',
    inputs: { JSON: '{"user":{"name":"Zoë 😀"}}', Property: 'name' },
    outputs: { Response: 'Zoë 😀', Count: '1' },
  },
  {
    family,
    choreo: 'GetValuesFromJSON',
    name: 'one object answers its JSON',
    inputs: { JSON: '{"user":{"name":"Zoë"}}', Property: 'user' },
    outputs: { Response: '{"name":"Zoë"}', Count: '1' },
  },
  { family, choreo: 'GetValuesFromJSON', name: 'no match', inputs: { JSON: ORDER, Property: 'price' }, outputs: { Response: '[]', Count: '0' } },
  { family, choreo: 'GetValuesFromJSON', name: 'no match at the top', inputs: { JSON: '{"a":1}', Property: 'b' }, outputs: { Response: '[]', Count: '0' } },
  {
    family,
    choreo: 'GetValuesFromJSON',
    name: 'malformed JSON',
    inputs: { JSON: '{"a": 1,,}', Property: 'a' },
    error: /^find: JSON is not valid: .*position 8/,
  },
  { family, choreo: 'GetValuesFromJSON', name: 'an empty document', inputs: { JSON: '', Property: 'a' }, error: /^find: JSON is not valid/ },
  {
    family,
    choreo: 'GetValuesFromJSON',
    // Larger than the API takes in one request body (1 MiB).
    name: 'in a large document',
    inputs: { JSON: JSON.stringify({ items: Array.from({ length: 100_000 }, (_, index) => ({ id: index })), total: 100_000 }), Property: 'total' },
    outputs: { Response: '100000', Count: '1' },
    only: 'engine',
  },

  // The service's own JSON Choreos, which the SDK has no class for.
  { family, choreo: 'BuildKeyValueJSON', inputs: { Key: 'tags', Value: '["a"]', ValueIsJSON: 'true' }, outputs: { JSON: '{"tags":["a"]}' }, only: 'engine' },
  { family, choreo: 'FormatJSON', inputs: { JSON: '{"a":[1]}', Indent: '1' }, outputs: { FormattedJSON: '{\n "a": [\n  1\n ]\n}' }, only: 'engine' },
  {
    family,
    choreo: 'RunJSONPathQuery',
    inputs: { JSON: '{"items":[{"id":7},{"id":8}]}', Path: '$.items[1].id' },
    outputs: { Result: '8', Count: '1' },
    only: 'engine',
  },
  {
    family,
    choreo: 'RunJSONPathQuery',
    name: 'malformed JSON',
    inputs: { JSON: '{"a": 1,,}', Path: '$.a' },
    error: /^query: JSON is not valid: .*position 8/,
    only: 'engine',
  },
  { family, choreo: 'MinifyJSON', inputs: { JSON: '{ "a" : [ 1 , 2 ] }' }, outputs: { MinifiedJSON: '{"a":[1,2]}' }, only: 'engine' },
];
