export { runChoreo } from './run-choreo.ts';
export type { Checkpoint, CheckpointDelta, RunOutcome, StepAttempt, StepEndEvent, StopReason } from './run-choreo.ts';
export type { SuspendedCallback, SuspensionPolicy } from './block-run.ts';
