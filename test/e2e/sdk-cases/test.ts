import type { SdkCase } from '../../support/sdk-case.ts';

export const cases: SdkCase[] = [
  { family: 'Test', choreo: 'HelloWorld', name: 'without a value', inputs: {}, expect: { Result: 'Hello, world!' } },
  { family: 'Test', choreo: 'HelloWorld', name: 'with a value', inputs: { Value: 'Ada' }, expect: { Result: 'Hello, Ada!' } },
];
