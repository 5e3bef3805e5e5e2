import type { ChoreoCase } from './choreo-case.ts';

export const cases: ChoreoCase[] = [
  { family: 'Test', choreo: 'HelloWorld', name: 'without a value', inputs: {}, outputs: { Result: 'Hello, world!' } },
  { family: 'Test', choreo: 'HelloWorld', name: 'with a value', inputs: { Value: 'Ada' }, outputs: { Result: 'Hello, Ada!' } },
  { family: 'Test', choreo: 'HelloWorld', name: 'with a Unicode value', inputs: { Value: 'Zoë 😀' }, outputs: { Result: 'Hello, Zoë 😀!' } },
];
