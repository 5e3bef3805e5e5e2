import type { ChoreoCase } from './choreo-case.ts';

const family = 'Formatting';

export const cases: ChoreoCase[] = [
  {
    family,
    choreo: 'RemoveWhiteSpace',
    inputs: { FormattedText: '\n<order>\r\n\t<item id="1">two words</item>\n</order>\n  ' },
    outputs: { CompactText: '<order><item id="1">two words</item></order>' },
  },
  {
    family,
    choreo: 'RemoveWhiteSpace',
    name: 'JSON',
    inputs: { FormattedText: '{\n\t"name": "Zoë",\r\n\t"tags": ["a b"]\n}\n' },
    outputs: { CompactText: '{"name": "Zoë","tags": ["a b"]}' },
  },
  { family, choreo: 'RemoveWhiteSpace', name: 'white space alone', inputs: { FormattedText: ' \t\r\n ' }, outputs: { CompactText: '' } },
];
