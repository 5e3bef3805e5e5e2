import type { SdkCase } from '../../support/sdk-case.ts';

export const cases: SdkCase[] = [
  {
    family: 'Formatting',
    choreo: 'RemoveWhiteSpace',
    inputs: { FormattedText: '{\n\t"name": "Zoë",\r\n\t"tags": ["a b"]\n}\n' },
    expect: { CompactText: '{"name": "Zoë","tags": ["a b"]}' },
  },
  { family: 'Formatting', choreo: 'RemoveWhiteSpace', name: 'white space alone', inputs: { FormattedText: ' \n\t ' }, expect: { CompactText: '' } },
];
