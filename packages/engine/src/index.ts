export { runChoreo } from './run-choreo.ts';
export type { ProgressEvent, ProgressListener, RunOutcome, StepAttempt, StepEndEvent, StopReason } from './run-choreo.ts';
export type { SuspensionPolicy } from './block-run.ts';
export type { SuspendedCallback } from './constructs/construct.ts';
