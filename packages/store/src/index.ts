export { ReplicationShortError, type ReplicaAcks } from './scripts.ts';
export { createKeySpace, EXECUTION_QUEUE, type KeySpace, WEBHOOK_QUEUE } from './keys.ts';
export { EXECUTION_STATUSES, isTerminal, type ExecutionStatus, type TerminalStatus } from './execution-status.ts';
export {
  acceptedRecord,
  type ExecutionRecord,
  type ExecutionSummary,
  type NewExecution,
  type RunningExecution,
  type ScheduledBy,
} from './execution-record.ts';
export type { AcceptOptions, AcceptResult, RedriveStart } from './execution-acceptance.ts';
export {
  createExecutionStore,
  type EndRequest,
  type EndResult,
  type RedriveSource,
  type ExecutionCounts,
  type ExecutionStore,
  type OverduePlace,
  type OverdueWait,
  overduePlaceAfter,
  type CallbackDelivery,
  type TerminationRequest,
} from './execution-store.ts';
export { createHistorySweep, type HistorySweep, type HistorySweepReport } from './history-sweep.ts';
export { createRunHistory, type HistoryCursor, type HistoryEntry, type HistoryPage, type HistoryQuery, type RunHistory } from './run-history.ts';
export { createDefinitionStore, type DefinitionStore } from './definition-store.ts';
export { createExecutionEvents, type EndWatch, type ExecutionEvents } from './execution-events.ts';
export { shardedPubSub, type ShardedPubSub } from './pub-sub.ts';
export {
  createExecutionQueue,
  createExecutionQueues,
  singleExecutionQueue,
  queuedJobCounts,
  type ExecutionQueues,
  enqueueExecution,
  EXECUTION_JOB_BACKOFF,
  EXECUTION_JOB_OPTIONS,
  EXECUTION_JOB_RETENTION,
  jobHolds,
  promoteJobs,
  type ExecutionJobData,
  type JobHold,
} from './execution-queue.ts';
export {
  createRedisConnection,
  isRedisCommandTimeout,
  redisTarget,
  waitUntilReady,
  type ConnectionRole,
  type RedisTarget,
} from './redis-connection.ts';
export { createWorkerRegistry, HEARTBEAT_INTERVAL_MS, HEARTBEAT_TTL_MS, type WorkerHeartbeat, type WorkerRegistry } from './worker-registry.ts';
export { createReconcilerState, type ReconcilerState } from './reconciler-state.ts';
export { executionEnded, type ExecutionEndListener } from './execution-ended.ts';
export { terminateExecution } from './terminate-execution.ts';
export {
  createAccountChoreoStore,
  type AccountChoreoLimits,
  type AccountChoreoStore,
  type PutChoreoResult,
  type StoredChoreo,
} from './account-choreo-store.ts';
export { acceptThenQueue, sendAcceptance, type SentAcceptance } from './send-acceptance.ts';
export {
  createRunEventLog,
  DEFAULT_RUN_EVENTS_BOUND,
  isAfter as isRunEventAfter,
  RUN_EVENT_ID,
  RUN_EVENT_TYPES,
  type RunEvent,
  type RunEventLog,
  type RunEventType,
  type StoredRunEvent,
} from './run-events.ts';
export { DEFAULT_STEP_HISTORY_BOUNDS, type StepEvent, type StepHistory, type StepHistoryBounds } from './step-history.ts';
export { CALLBACK_TOKEN_PATTERN, callbackTokenDigest } from './callbacks.ts';
export { CALLBACK_CAPTURE_PATH, callbackCaptureUrl, RUN_CALLBACK_PATH, runCallbackUrl, withoutCallbackToken } from './callback-paths.ts';
export {
  createSecretCipher,
  generateSecretKey,
  SECRET_KEY_BYTES,
  SecretUnreadableError,
  type SecretCipher,
} from './secret-cipher.ts';
export {
  createPresetStore,
  type PresetDescription,
  type PresetInput,
  type PresetStore,
  type PutPresetOutcome,
} from './preset-store.ts';
export { createTokenStore, TOKEN_LOCK_MS, type TokenStore } from './token-store.ts';
export { openRunInputs, sealRunInputs } from './sealed-inputs.ts';
export { hasSealedOutputs, openSealedOutputs, SEALED_OUTPUTS, sealSecretOutputs, SecretOutputsKeyMissingError } from './sealed-outputs.ts';
export {
  openProgressEntries,
  openSealedResults,
  SEALED_RESULTS,
  sealProgressEntries,
  sealSecretResults,
  SecretResultsKeyMissingError,
  type StoredProgressEntry,
} from './sealed-results.ts';
export { resealExecutionSecrets } from './reseal-executions.ts';
export { redriveStart } from './redrive-start.ts';
export {
  CALLBACK_ID,
  CALLBACK_TTL_SECONDS,
  callbackUrlKey,
  createCallbackStore,
  MAX_CALLBACK_REQUESTS,
  type AccountCallbackStore,
  type CallbackRegistration,
  type CallbackStore,
  type CallbackTarget,
} from './callback-store.ts';
export { parseDuration, ticksAfter, timingProblem, type ScheduleTiming } from './schedule-times.ts';
export type { ClaimedSchedule, OverlapPolicy, ScheduleSpec, StoredSchedule } from './schedule.ts';
export type { Advance } from './schedule-advances.ts';
export { createScheduleStore, ScheduleLimitError, type ScheduleStore } from './schedule-store.ts';
export { tickExecutionId } from './tick-execution-id.ts';
export {
  createConsoleSessionStore,
  type ConsoleSession,
  type ConsoleSessionIdentity,
  type ConsoleSessionStore,
} from './console-session-store.ts';
export {
  createWebhookStore,
  generateWebhookSecret,
  NOTIFY_WEBHOOK,
  SECRET_OVERLAP_MS,
  WEBHOOK_EVENT_TYPES,
  type PutWebhookResult,
  type SigningTarget,
  type WebhookDescription,
  type WebhookEventType,
  type WebhookSpec,
  type WebhookStore,
} from './webhook-store.ts';
export {
  type ClaimedWebhookEvent,
  createWebhookDeliveries,
  DELIVERY_ID,
  webhookDeliveryId,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryState,
  type FirstAttempt,
  type NewDelivery,
  type WebhookDeliveries,
  type WebhookEvent,
  type WebhookRecord,
} from './webhook-deliveries.ts';
export { createWebhookQueue, enqueueDelivery, WEBHOOK_JOB_OPTIONS, webhookJobId, type WebhookJobData } from './webhook-queue.ts';
export { errorFields, executionStatusFields, scheduleFields, versionField } from './execution-status-fields.ts';
export { createTurnBatcher } from './turn-batches.ts';
export { derivedExecutionId, executionShard, MAX_SHARDS, newExecutionId, placeExecutionId } from './execution-ids.ts';
export { keySlot, shardPrefixes } from './shard-tags.ts';
export {
  followShardRegistry,
  idempotencyShardText,
  openShardLayout,
  SHARD_SETTLE_MS,
  singleShardLayout,
  type Shard,
  type ShardLayout,
} from './shard-layout.ts';
export { createShardedExecutionStore } from './sharded-execution-store.ts';
export { holdAtSeam, STORE_CRASH_SEAMS, type StoreCrashSeam, type StoreCrashSeamHook } from './store-crash-seam.ts';
export { createAccountReservations, type AccountReservations } from './account-reservations.ts';
export { mirrorAllWebhookEvents } from './webhook-store.ts';
