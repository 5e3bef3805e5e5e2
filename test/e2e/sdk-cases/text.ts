import type { SdkCase } from '../../support/sdk-case.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const seenGuids = new Set<string>();

export const cases: SdkCase[] = [
  {
    family: 'Text',
    choreo: 'GenerateGUID',
    inputs: {},
    check: ({ GUID }) => {
      if (GUID === undefined || !UUID.test(GUID)) throw new Error(`GUID ${GUID} is not a version 4 UUID`);
      if (seenGuids.has(GUID)) throw new Error(`GUID ${GUID} was generated twice`);
      seenGuids.add(GUID);
    },
  },
  { family: 'Text', choreo: 'Lowercase', inputs: { Text: 'Hello ÉCOLE 42' }, expect: { Response: 'hello école 42' } },
  { family: 'Text', choreo: 'Lowercase', name: 'empty text', inputs: { Text: '' }, expect: { Response: '' } },
  { family: 'Text', choreo: 'Uppercase', inputs: { Text: 'hello straße' }, expect: { Response: 'HELLO STRASSE' } },
  { family: 'Text', choreo: 'Split', inputs: { Text: 'red,green,,blue', Delimiter: ',' }, expect: { Response: '["red","green","","blue"]' } },
  { family: 'Text', choreo: 'Split', name: 'delimiter taken literally', inputs: { Text: 'a|b|c', Delimiter: '|' }, expect: { Response: '["a","b","c"]' } },
  { family: 'Text', choreo: 'Split', name: 'missing delimiter', inputs: { Text: 'a,b' }, error: /Delimiter/ },
  { family: 'Text', choreo: 'Substitute', inputs: { Text: 'one cat, two cats', Old: 'cat', New: 'dog' }, expect: { Response: 'one dog, two dogs' } },
  {
    family: 'Text',
    choreo: 'SubstituteRegex',
    inputs: { Text: 'call 555-1234 or 555-9876', Pattern: '(\\d{3})-(\\d{4})', New: '$2/$1' },
    expect: { Response: 'call 1234/555 or 9876/555' },
  },
  {
    family: 'Text',
    choreo: 'SubstituteRegex',
    name: 'invalid pattern',
    inputs: { Text: 'abc', Pattern: '(', New: 'x' },
    error: /regular expression is not valid/,
  },
];
