export type { AccountCallbacks, AccountState, AccountTokens, CallbackRequest } from './account-state.ts';
export { bindInputs } from './bind-inputs.ts';
export type { Checkpoint, CheckpointDelta, ProgressChanges, ProgressEntry } from './checkpoint.ts';
export { childReferenceProblems, childReferences } from './child-references.ts';
export { ChildFailedError, ChildRefusedError, MAX_CHILD_DEPTH, runChild } from './child-runs.ts';
export type { ChildEnd, ChildRuns, DurableChildWait } from './child-runs.ts';
export { choreoDocumentJsonSchema } from './choreo-document-schema.ts';
export { compileDefinition, evaluateOutputs, evaluateOutputValues } from './compiled-definition.ts';
export type { CompiledNode, CompiledStep } from './compiled-definition.ts';
export type { CompiledCondition } from './condition.ts';
export { definitionDigest } from './definition-digest.ts';
export { toPointer } from './document-problem.ts';
export type { DocumentProblem } from './document-problem.ts';
export {
  DEFAULT_STEP_TIMEOUT_MS,
  inputDefinitionSchema,
  MAX_LOOP_CONCURRENCY,
  MAX_LOOP_ITERATIONS,
  outputDefinitionSchema,
} from './definition.ts';
export type { ChoreoDefinition, ErrorType, InputDefinition, NodeDefinition, OutputDefinition } from './definition.ts';
export { compileExpression, ExpressionError } from './expression.ts';
export { isInstantChoreo, isPureStep } from './instant-choreo.ts';
export { exceedsJsonLength, jsonLength } from './json-length.ts';
export { applyOutputFilters, OutputFilterError } from './output-filters.ts';
export type { OutputFilter } from './output-filters.ts';
export { parseDefinition } from './parse-definition.ts';
export {
  branchAddress,
  callbackAddress,
  callbackTokenAddress,
  enclosingLoopAddress,
  failureAddress,
  isInsideIteration,
  iterationAddress,
  leadingId,
  loopStepAddress,
  parseProgressAddress,
  stepAddress,
  wakeAddress,
} from './progress-address.ts';
export type { ProgressAddress } from './progress-address.ts';
export { redriveProgress } from './redrive-progress.ts';
export { resumePoint } from './resume-point.ts';
export type { ResumeFromLog } from './resume-point.ts';
export { hasSecretOutputs } from './secret-outputs.ts';
export {
  BLOCK_ENDED,
  ChoreoFailError,
  EgressRefusedError,
  errorMessage,
  InvalidStepInputError,
  isRetryable,
  shorten,
  StepAbortedError,
  StepFailedError,
  StepTimeoutError,
} from './step-errors.ts';
export { defineStepKind, stepLibraryFrom } from './step-kind.ts';
export { startChild, stepCommandOf, suspendForChild, suspendRun } from './step-command.ts';
export type { StepCommand } from './step-command.ts';
export type { StepContext, StepKind, StepLibrary, StepSuspension } from './step-kind.ts';
export type { CaughtError, TemplateContext } from './template.ts';
export { evaluateValue, MissingTemplateValueError } from './templated-value.ts';
export { walkDefinition } from './walk-definition.ts';
