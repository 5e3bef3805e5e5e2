export { runChoreo } from './run-choreo.ts';
export type { RunOutcome, StepAttempt, StepEndEvent, StopReason } from './run-choreo.ts';
export type { SuspendedCallback, SuspensionPolicy } from './block-run.ts';
