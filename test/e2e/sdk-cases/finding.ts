import type { SdkCase } from '../../support/sdk-case.ts';

export const cases: SdkCase[] = [
  { family: 'Finding', choreo: 'FindSubstring', inputs: { Text: 'Banana band, BANANA', Substring: 'ban' }, expect: { Count: '3', Positions: '[1,8,14]' } },
  {
    family: 'Finding',
    choreo: 'FindSubstring',
    name: 'case-sensitive from a start position',
    inputs: { Text: 'Banana band, BANANA', Substring: 'an', CaseSensitive: 'true', StartNumber: '3' },
    expect: { Count: '2', Positions: '[4,9]' },
  },
  { family: 'Finding', choreo: 'FindSubstring', name: 'nothing found', inputs: { Text: 'abc', Substring: 'x' }, expect: { Count: '0', Positions: '[]' } },
  { family: 'Finding', choreo: 'RegexMatch', inputs: { Text: 'Order #A-1042 shipped', Pattern: '[A-Z]-\\d+' }, expect: { Result: 'A-1042' } },
  { family: 'Finding', choreo: 'RegexMatch', name: 'no match', inputs: { Text: 'no digits', Pattern: '\\d+' }, expect: { Result: '' } },
  { family: 'Finding', choreo: 'RegexMatch', name: 'invalid pattern', inputs: { Text: 'abc', Pattern: '[' }, error: /regular expression is not valid/ },
];
