import type { SdkCase } from '../../support/sdk-case.ts';

const ORDER = '{"order":{"id":7,"items":[{"id":8,"name":"pen"},{"id":9,"name":"ink"}]}}';

export const cases: SdkCase[] = [
  { family: 'JSON', choreo: 'GetValuesFromJSON', name: 'several matches', inputs: { JSON: ORDER, Property: 'name' }, expect: { Response: '["pen","ink"]' } },
  {
    family: 'JSON',
    choreo: 'GetValuesFromJSON',
    name: 'one match',
    inputs: { JSON: '{"user":{"name":"Zoë"}}', Property: 'name' },
    expect: { Response: 'Zoë' },
  },
  { family: 'JSON', choreo: 'GetValuesFromJSON', name: 'no match', inputs: { JSON: ORDER, Property: 'price' }, expect: { Response: '[]' } },
  { family: 'JSON', choreo: 'GetValuesFromJSON', name: 'malformed JSON', inputs: { JSON: '{"a": 1,,}', Property: 'a' }, error: /JSON is not valid/ },
];
