import type { ChoreoCase } from './choreo-case.ts';

/**
 * The ways a run through the original's SDK is refused before it starts: a wrong key, a missing
 * required input, a preset that does not exist. Only a running service refuses these.
 */
export const cases: ChoreoCase[] = [
  {
    family: 'Encoding',
    choreo: 'Base64Encode',
    name: 'a wrong application key',
    inputs: { Text: 'x' },
    wrongKey: true,
    error: /^Authentication is required/,
    only: 'sdk',
  },
  {
    family: 'Encoding',
    choreo: 'Base64Decode',
    name: 'a required input missing',
    inputs: {},
    // The SDK hands a 400's whole body over as the message.
    error: /"message":"Required input missing: Base64EncodedText\."/,
    only: 'sdk',
  },
  {
    family: 'Encoding',
    choreo: 'Base64Decode',
    name: 'a preset that does not exist',
    inputs: { Base64EncodedText: 'eA==' },
    preset: 'My saved inputs',
    error: /^preset "My saved inputs" does not exist$/,
    only: 'sdk',
  },
];
