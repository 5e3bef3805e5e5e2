export { runChoreo } from './run-choreo.ts';
export type { Checkpoint, CheckpointDelta, EngineHooks, ResumePoint, RunChoreoOptions, RunLimits, RunOutcome, StepEndEvent, StopReason } from './run-choreo.ts';
export type { ProgressEntry } from './block-run.ts';
