import type { ChoreoCase } from './choreo-case.ts';

/**
 * Callback through the original SDK, in the order given: a callback registered under a custom id
 * has one URL, and nothing recorded until something calls it. Only a running service keeps an
 * account's callbacks: the engine alone has none.
 */
const sdkOnly = { family: 'Callback', only: 'sdk' } as const;
let staticUrl = '';

export const cases: ChoreoCase[] = [
  {
    ...sdkOnly,
    choreo: 'RegisterCallback',
    name: 'registers a callback with a random id and an HTTPS URL',
    inputs: {},
    check: (outputs) => {
      if (!/^[0-9a-f]{32}$/.test(outputs.CallbackID ?? '')) throw new Error(`CallbackID ${outputs.CallbackID} is not 32 hex characters`);
      if (!/^https:\/\/[^/]+\/callbacks\/[A-Za-z0-9_-]{43}$/.test(outputs.CallbackURL ?? ''))
        throw new Error(`CallbackURL ${outputs.CallbackURL} is not a callback URL`);
    },
  },
  {
    ...sdkOnly,
    choreo: 'RegisterCallback',
    name: 'a custom id gets a static URL',
    inputs: { CustomCallbackD: 'sdk-case-static' },
    check: (outputs) => {
      if (outputs.CallbackID !== 'sdk-case-static') throw new Error(`CallbackID is ${outputs.CallbackID}`);
      staticUrl = outputs.CallbackURL ?? '';
    },
  },
  {
    ...sdkOnly,
    choreo: 'RegisterCallback',
    name: 'registering the custom id again gives the same URL',
    inputs: { CustomCallbackD: 'sdk-case-static' },
    check: (outputs) => {
      if (outputs.CallbackURL !== staticUrl) throw new Error('the same custom id gave another URL');
    },
  },
  {
    ...sdkOnly,
    choreo: 'GetCallbackData',
    name: 'nothing is recorded before a request comes',
    inputs: { CallbackID: 'sdk-case-static' },
    outputs: { CallbackData: '[]' },
  },
  {
    ...sdkOnly,
    choreo: 'GetCallbackData',
    name: 'in XML',
    inputs: { CallbackID: 'sdk-case-static', ResponseFormat: 'xml' },
    outputs: { CallbackData: '<requests></requests>' },
  },
  {
    ...sdkOnly,
    choreo: 'GetCallbackData',
    name: 'refuses a filter name without a value',
    inputs: { CallbackID: 'sdk-case-static', FilterName: 'state' },
    error: /FilterName and FilterValue go together/,
  },
];
