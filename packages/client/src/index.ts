export { ApiError, ConnectionError, type ConnectionProblem } from './client-errors.ts';
export {
  type CesClient,
  type CesClientConfig,
  type ChoreoDetails,
  type ChoreoDocument,
  createCesClient,
  type EndedRun,
  type EventsOptions,
  type HistoryEntry,
  type HistoryFilters,
  type Inputs,
  type OutputFilter,
  type Preset,
  type PresetInput,
  type RunningEntry,
  type RunOptions,
  type RunResult,
  type StepEntry,
} from './ces-client.ts';
export type { components, operations, paths } from './generated/api.ts';
export { type Execution, type ExecutionStatus, isEnded, type Outcome, type RunEvent, type RunEventType } from './run-events.ts';
export { createSseParser, type ServerSentEvent } from './sse-parser.ts';
