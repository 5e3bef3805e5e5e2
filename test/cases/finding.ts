import type { ChoreoCase } from './choreo-case.ts';

const family = 'Finding';

export const cases: ChoreoCase[] = [
  { family, choreo: 'FindSubstring', inputs: { Text: 'Banana band, BANANA', Substring: 'ban' }, outputs: { Count: '3', Positions: '[1,8,14]' } },
  {
    family,
    choreo: 'FindSubstring',
    name: 'case-sensitive from a start position',
    inputs: { Text: 'Banana band, BANANA', Substring: 'an', CaseSensitive: 'true', StartNumber: '3' },
    outputs: { Count: '2', Positions: '[4,9]' },
  },
  { family, choreo: 'FindSubstring', name: 'counts characters', inputs: { Text: '😀é😀é', Substring: 'É' }, outputs: { Count: '2', Positions: '[2,4]' } },
  { family, choreo: 'FindSubstring', name: 'nothing found', inputs: { Text: 'abc', Substring: 'x' }, outputs: { Count: '0', Positions: '[]' } },
  { family, choreo: 'FindSubstring', name: 'in an empty text', inputs: { Text: '', Substring: 'x' }, outputs: { Count: '0', Positions: '[]' } },
  {
    family,
    choreo: 'FindSubstring',
    name: 'a StartNumber that is not one',
    inputs: { Text: 'abc', Substring: 'a', StartNumber: 'first' },
    error: /^find: invalid arguments: .*whole number/,
  },
  { family, choreo: 'RegexMatch', inputs: { Text: 'Order #A-1042 shipped', Pattern: '[A-Z]-\\d+' }, outputs: { Result: 'A-1042' } },
  { family, choreo: 'RegexMatch', name: 'no match', inputs: { Text: 'no digits', Pattern: '\\d+' }, outputs: { Result: '' } },
  { family, choreo: 'RegexMatch', name: 'invalid pattern', inputs: { Text: 'abc', Pattern: '[' }, error: /^match: the regular expression is not valid/ },
  { family, choreo: 'RegexMatch', name: 'no pattern', inputs: { Text: 'abc' }, error: /^match: invalid arguments: .*regular expression is empty/ },
  {
    family,
    choreo: 'RegexMatch',
    name: 'a backtracking pattern stopped',
    inputs: { Text: `${'a'.repeat(40)}!`, Pattern: '^(a+)+$' },
    error: /^match: the regular expression ran longer than 1000 ms/,
  },
];
