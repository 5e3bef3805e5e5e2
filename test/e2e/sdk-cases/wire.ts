import type { SdkCase } from '../../support/sdk-case.ts';

/**
 * The harness's own cases: Encoding's Base64 Choreos, whose interface and output the original's
 * documentation fixes exactly, and the SDK's own ways of failing: a wrong key, a missing required
 * input, a preset that does not exist. Every run the SDK makes asks for `choreos//<location>`.
 */
export const cases: SdkCase[] = [
  {
    family: 'Encoding',
    choreo: 'Base64Encode',
    inputs: { Text: 'hello, world' },
    expect: { Base64EncodedText: 'aGVsbG8sIHdvcmxk' },
  },
  {
    family: 'Encoding',
    choreo: 'Base64Encode',
    name: 'Unicode text',
    inputs: { Text: 'Grüße, 世界 ☺' },
    expect: { Base64EncodedText: Buffer.from('Grüße, 世界 ☺').toString('base64') },
  },
  {
    family: 'Encoding',
    choreo: 'Base64Decode',
    inputs: { Base64EncodedText: 'aGVsbG8sIHdvcmxk' },
    expect: { Text: 'hello, world' },
  },
  {
    family: 'Encoding',
    choreo: 'Base64Encode',
    name: 'a wrong application key',
    inputs: { Text: 'x' },
    wrongKey: true,
    error: /^Authentication is required/,
  },
  {
    family: 'Encoding',
    choreo: 'Base64Decode',
    name: 'a required input missing',
    inputs: {},
    // The SDK hands a 400's whole body over as the message.
    error: /"message":"Required input missing: Base64EncodedText\."/,
  },
  {
    family: 'Encoding',
    choreo: 'Base64Decode',
    name: 'a preset that does not exist',
    inputs: { Base64EncodedText: 'eA==' },
    preset: 'My saved inputs',
    error: /^preset "My saved inputs" does not exist$/,
  },
];
