export { runChoreo } from './run-choreo.ts';
export type { Checkpoint, EngineHooks, RunChoreoOptions, RunLimits, RunOutcome, StepEndEvent, StopReason } from './run-choreo.ts';
