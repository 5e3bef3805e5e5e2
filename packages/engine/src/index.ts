export { runChoreo } from './run-choreo.ts';
export type { Checkpoint, RunOutcome, StopReason } from './run-choreo.ts';
