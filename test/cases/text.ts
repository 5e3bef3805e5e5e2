import type { ChoreoCase } from './choreo-case.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Near the 5 MiB limit of a step's text. */
const LARGE = 5 * 1024 * 1024 - 16;
const family = 'Text';
const seenGuids = new Set<string>();

function expectNewGuid({ GUID }: Readonly<Record<string, string>>): void {
  if (GUID === undefined || seenGuids.has(GUID)) throw new Error(`GUID ${GUID} was generated twice`);
  seenGuids.add(GUID);
}

export const cases: ChoreoCase[] = [
  { family, choreo: 'GenerateGUID', inputs: {}, outputs: { GUID: UUID }, check: expectNewGuid },
  { family, choreo: 'GenerateGUID', name: 'another one', inputs: {}, outputs: { GUID: UUID }, check: expectNewGuid },
  { family, choreo: 'Lowercase', inputs: { Text: 'Hello ÉCOLE 42' }, outputs: { Response: 'hello école 42' } },
  { family, choreo: 'Lowercase', name: 'an empty text', inputs: { Text: '' }, outputs: { Response: '' } },
  { family, choreo: 'Uppercase', inputs: { Text: 'hello straße 42' }, outputs: { Response: 'HELLO STRASSE 42' } },
  { family, choreo: 'Uppercase', name: 'the largest text', inputs: { Text: 'é'.repeat(LARGE) }, outputs: { Response: 'É'.repeat(LARGE) }, only: 'engine' },
  { family, choreo: 'Split', inputs: { Text: 'a, b,,c', Delimiter: ',' }, outputs: { Response: '["a"," b","","c"]', Count: '4' } },
  {
    family,
    choreo: 'Split',
    name: 'a single-character delimiter',
    inputs: { Text: 'a|b|c', Delimiter: '|' },
    outputs: { Response: '["a","b","c"]', Count: '3' },
  },
  {
    family,
    choreo: 'Split',
    name: 'a multi-character delimiter, pattern characters literal',
    inputs: { Text: 'a.*b.*😀', Delimiter: '.*' },
    outputs: { Response: '["a","b","😀"]', Count: '3' },
  },
  { family, choreo: 'Split', name: 'an empty text', inputs: { Text: '', Delimiter: ',' }, outputs: { Response: '[""]', Count: '1' } },
  {
    family,
    choreo: 'Split',
    name: 'by line',
    inputs: { Text: 'one\r\ntwo\nthree', Delimiter: '\n' },
    outputs: { Response: '["one","two","three"]', Count: '3' },
  },
  { family, choreo: 'Split', name: 'no delimiter', inputs: { Text: 'a,b' }, error: /Delimiter/ },
  { family, choreo: 'Split', name: 'an empty delimiter', inputs: { Text: 'abc', Delimiter: '' }, error: /^split: invalid arguments: .*separator/ },
  {
    family,
    choreo: 'Split',
    name: 'a large text',
    inputs: { Text: 'ab,'.repeat(LARGE / 4), Delimiter: ',' },
    outputs: { Response: JSON.stringify([...Array.from({ length: LARGE / 4 }, () => 'ab'), '']), Count: String(LARGE / 4 + 1) },
    only: 'engine',
  },
  { family, choreo: 'Substitute', inputs: { Text: 'one cat, two cats', Old: 'cat', New: 'dog' }, outputs: { Response: 'one dog, two dogs' } },
  { family, choreo: 'Substitute', name: 'dollar signs taken literally', inputs: { Text: 'a+b', Old: '+', New: '$&' }, outputs: { Response: 'a$&b' } },
  {
    family,
    choreo: 'Substitute',
    name: 'an empty Old',
    inputs: { Text: 'abc', Old: '', New: 'x' },
    error: /^substitute: invalid arguments: .*text to replace is empty/,
  },
  {
    family,
    choreo: 'SubstituteRegex',
    inputs: { Text: 'call 555-1234 or 555-9876', Pattern: '(\\d{3})-(\\d{4})', New: '$2/$1' },
    outputs: { Response: 'call 1234/555 or 9876/555' },
  },
  {
    family,
    choreo: 'SubstituteRegex',
    name: 'an invalid pattern',
    inputs: { Text: 'abc', Pattern: '(', New: 'x' },
    error: /^substitute: the regular expression is not valid/,
  },
  {
    family,
    choreo: 'SubstituteRegex',
    name: 'a backtracking pattern stopped',
    inputs: { Text: `${'a'.repeat(40)}!`, Pattern: '^(a+)+$', New: 'x' },
    error: /^substitute: the regular expression ran longer than 1000 ms/,
  },

  // The service's own Text Choreos, which the SDK has no class for.
  { family, choreo: 'ChangeCase', inputs: { Text: 'hello there', Case: 'title' }, outputs: { Result: 'Hello There' }, only: 'engine' },
  { family, choreo: 'Length', inputs: { Text: 'héllo' }, outputs: { Characters: '5', Bytes: '6' }, only: 'engine' },
  {
    family,
    choreo: 'RegexReplace',
    inputs: { Text: '2024-05-06', Pattern: '(\\d+)-(\\d+)-(\\d+)', Replacement: '$3/$2/$1' },
    outputs: { Result: '06/05/2024' },
    only: 'engine',
  },
  { family, choreo: 'Trim', inputs: { Text: '  a \n\t b  ' }, outputs: { Result: 'a b' }, only: 'engine' },
];
