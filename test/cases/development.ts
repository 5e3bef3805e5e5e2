import type { ChoreoCase } from './choreo-case.ts';

/** The service's own Choreos for trying it out, which the SDK has no class for. */
const engineOnly = { family: 'Development', only: 'engine' } as const;

export const cases: ChoreoCase[] = [
  { ...engineOnly, choreo: 'Countdown', inputs: { StepMilliseconds: '1' }, outputs: { CompletedSteps: '10' } },
  { ...engineOnly, choreo: 'Echo', inputs: { Message: 'hi' }, outputs: { JSON: /^\{"message":"hi","receivedAt":"\d{4}-.+Z"\}$/, Message: 'hi' } },
  { ...engineOnly, choreo: 'Fail', inputs: { Message: 'as planned' }, error: /^fail: as planned$/ },
  { ...engineOnly, choreo: 'NoOpSteps', inputs: {}, outputs: { CompletedSteps: '50' } },
  { ...engineOnly, choreo: 'NoOpLoop', inputs: { Iterations: '250' }, outputs: { Iterations: '250' } },
  { ...engineOnly, choreo: 'Wait', inputs: { Milliseconds: '1' }, outputs: { WaitedMilliseconds: '1' } },
];
