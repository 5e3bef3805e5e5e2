export { runChoreo } from './run-choreo.ts';
export type { Checkpoint, CheckpointDelta, RunOutcome, StopReason } from './run-choreo.ts';
export type { SuspendedCallback, SuspensionPolicy } from './block-run.ts';
