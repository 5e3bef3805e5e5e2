export type {
  ChoreoDefinition,
  ConditionDefinition,
  ErrorType,
  InputDefinition,
  NodeDefinition,
  OutputDefinition,
  RetryPolicy,
  StepDefinition,
} from './definition.ts';
export { DEFAULT_STEP_TIMEOUT_MS, ERROR_TYPES, MAX_LOOP_CONCURRENCY, MAX_LOOP_ITERATIONS, VARIABLE_TYPE } from './definition.ts';
export { parseDefinition } from './parse-definition.ts';
export { walkDefinition } from './walk-definition.ts';
export type { NodeScope } from './walk-definition.ts';
export type { ParseDefinitionResult } from './parse-definition.ts';
export { compileDefinition, evaluateOutputs, evaluateOutputValues } from './compiled-definition.ts';
export type { CompiledDefinition, CompiledNode, CompiledStep } from './compiled-definition.ts';
export type { CompiledCondition } from './condition.ts';
export { compileTemplate, TemplateSyntaxError } from './template.ts';
export type { CaughtError, CompiledTemplate, TemplateContext, TemplateReference } from './template.ts';
export { evaluateValue, MissingTemplateValueError } from './templated-value.ts';
export { compileExpression, DEFAULT_EXPRESSION_LIMITS, ExpressionError, ExpressionSyntaxError, isExpression } from './expression.ts';
export type { CompiledExpression, ExpressionLimits } from './expression.ts';
export type { CompiledValue } from './templated-value.ts';
export { bindInputs } from './bind-inputs.ts';
export { exceedsJsonLength, jsonLength } from './json-length.ts';
export type { BindInputsResult } from './bind-inputs.ts';
export { applyOutputFilters, OutputFilterError } from './output-filters.ts';
export type { OutputFilter } from './output-filters.ts';
export { definitionDigest } from './definition-digest.ts';
export { loadCatalogue } from './catalogue.ts';
export { isInstantChoreo, isPureStep } from './instant-choreo.ts';
export { hasSecretOutputs } from './secret-outputs.ts';
export type { Catalogue, CatalogueEntry, InvalidCatalogueEntry, ValidCatalogueEntry } from './catalogue.ts';
export { renderCatalogueDocs } from './catalogue-docs.ts';
export { createStepLibrary, DEFAULT_STEP_LIBRARY_OPTIONS } from './step-library.ts';
export { createSandbox } from './sandbox.ts';
export { DEFAULT_CODE_LIMITS } from './quickjs-runner.ts';
export type { CodeLimits } from './quickjs-runner.ts';
export type { Sandbox, SandboxOptions } from './sandbox.ts';
export type { StepLibraryOptions } from './step-library.ts';
export { defineStepKind, stepLibraryFrom } from './step-kind.ts';
export type { StepContext, StepKind, StepLibrary, StepSuspension } from './step-kind.ts';
export type { AccountCallbacks, AccountState, AccountTokens, CallbackRequest, LockAttempt, StoredToken } from './account-state.ts';
export type { HttpStepOptions, HttpResponse } from './steps/http-request.ts';
export {
  BLOCK_ENDED,
  ChoreoFailError,
  EgressRefusedError,
  errorMessage,
  InvalidStepInputError,
  isRetryable,
  StepAbortedError,
  StepFailedError,
  StepTimeoutError,
} from './step-errors.ts';
export {
  callbackAddress,
  callbackTokenAddress,
  enclosingLoopAddress,
  failureAddress,
  isInsideIteration,
  iterationAddress,
  loopStepAddress,
  parseProgressAddress,
  stepAddress,
  wakeAddress,
} from './progress-address.ts';
export type { ProgressAddress } from './progress-address.ts';
export { startChild, stepCommandOf, suspendRun } from './step-command.ts';
export type { StepCommand } from './step-command.ts';
export { checkChoreoDocument, DEFAULT_CHOREO_DOCUMENT_LIMITS, isValidChoreoId } from './choreo-document.ts';
export type { CheckDocumentResult, ChoreoDocumentLimits, DocumentProblem } from './choreo-document.ts';
export { ChildFailedError, ChildRefusedError, MAX_CHILD_DEPTH, runChild } from './steps/choreo-run.ts';
export type { ChildEnd, ChildRuns } from './steps/choreo-run.ts';
