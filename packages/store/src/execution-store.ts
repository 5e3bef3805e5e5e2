import { hash } from 'node:crypto';
import { historyKeyTemplates } from './history-keys.ts';
import { createExecutionAcceptance, type AcceptOptions, type AcceptResult } from './execution-acceptance.ts';
import { callbackAddress, type CheckpointDelta, type ProgressEntry } from '@ces/language';
import type { Redis } from 'ioredis';
import {
  decodeExecution,
  decodeListRow,
  fieldsToObject,
  pairsToObject,
  RECORD_FIELDS,
  RUNNING_FIELDS,
  SUMMARY_FIELDS,
  type RunningExecution,
  type ExecutionRecord,
  type ExecutionSummary,
  type NewExecution,
} from './execution-record.ts';
import { isTerminal, TERMINAL_STATUSES, type ExecutionStatus, type TerminalStatus } from './execution-status.ts';
import type { KeySpace } from './keys.ts';
import { publishCommand } from './pub-sub.ts';
import { ScriptReply } from './script-replies.ts';
import { scoredIds } from './scored-ids.ts';
import type { AccountReservations } from './account-reservations.ts';
import { callbackTokenDigest } from './callbacks.ts';
import { openRunInputs } from './sealed-inputs.ts';
import type { SecretCipher } from './secret-cipher.ts';
import type { StoreCrashSeamHook } from './store-crash-seam.ts';
import { registerScripts, ReplicationShortError, type ReplicaAcks } from './scripts.ts';
import { HEARTBEAT_TTL_MS } from './worker-registry.ts';
import { slidingStoredBytes, type StorageWindow, storageWindow } from './storage-window.ts';
import {
  decodeStepHistory,
  DEFAULT_STEP_HISTORY_BOUNDS,
  encodeStepEvents,
  type PreviousStepEvent,
  type StepEvent,
  type StepHistory,
  type StepHistoryBounds,
} from './step-history.ts';
import { DEFAULT_RUN_EVENTS_BOUND, encodeRunEvent, joinRunEvents, type RunEvent } from './run-events.ts';

/** What a redrive starts from: the ended record, and its progress as stored (address → JSON). */
export interface RedriveSource {
  record: ExecutionRecord;
  progress: [string, string][];
}

/**
 * - `continue`: recorded; `termination-requested`: recorded, and termination was requested;
 * - `not-running`: not recorded, the execution has ended (or expired);
 * - `superseded`: not recorded, another worker has taken the execution since this lease.
 */
export type CheckpointResult = 'continue' | 'termination-requested' | 'not-running' | 'superseded';

/** A top-level checkpoint as stored: the step it reached, its changes to the progress (ProgressChanges), the outputs so far. */
export interface TopLevelCheckpoint {
  nextStep: number;
  entries: readonly ProgressEntry[];
  /** Addresses of entries to delete; none when absent. */
  superseded?: readonly string[];
  outputs: Record<string, string>;
}

/** A worker's take of an execution. */
export interface TakeRequest {
  /** Host address of the worker, recorded as the execution's `host`. */
  host: string;
  workerId: string;
  /** A token unique to this take. */
  lease: string;
  /**
   * Most executions of one account that workers may have taken at once (0 or omitted: no limit).
   * Every worker must be given the same value.
   */
  maxExecutingPerAccount?: number;
  now?: number;
}

/**
 * - `taken`: the execution is RUNNING and held under this take's lease from now on;
 * - `ended`: it had ended already (`record` as it is);
 * - `missing`: no such execution (or it expired);
 * - `deferred`: nothing changed, its account has its maximum of executions taken;
 *   `deferrals` counts the takes of this execution deferred so far (1 the first time), `waiting`
 *   the account's RUNNING executions that no worker has taken (this one among them); `deadline`
 *   is the execution's (0: none).
 */
export type TakeResult =
  | { outcome: 'taken' | 'ended'; record: ExecutionRecord }
  | { outcome: 'missing' }
  | { outcome: 'deferred'; deferrals: number; waiting: number; deadline: number };

export interface EndRequest {
  status: TerminalStatus;
  /** Outputs to keep; omitted keeps the stored ones. */
  outputs?: Record<string, string>;
  error?: string;
  now?: number;
  /** The execution's account when the caller knows it, which saves a round trip. */
  account?: string;
  /** A worker's lease: the execution ends only if no other worker has taken it since. */
  lease?: string;
  /** The index of the step reached, recorded with the end. */
  nextStep?: number;
  /**
   * The worker that ran an instant Choreo without taking the execution first (no lease): the
   * execution ends only if no worker has ever taken it, and records this worker as its runner.
   */
  untakenBy?: { host: string; workerId: string };
  /** Step events not yet written, appended to the step history with the end. */
  stepEvents?: readonly StepEvent[];
  /** Run events not yet written, added before `execution.ended`. */
  runEvents?: readonly RunEvent[];
}

/**
 * - `ended`: this call ended the execution, with `status` (TERMINATED_MANUALLY when termination had
 *   been requested, whatever was asked); `wokenParents`: its parent, when suspended in a wait for
 *   its children, made due by this end (end-record.lua): the caller makes its job due (promoteJobs);
 * - `not-running`: nothing changed, it had ended already (with `status`) or does not exist;
 * - `superseded`: nothing changed, it runs under another worker's lease (or, with `untakenBy`, a
 *   worker has taken it).
 */
export type EndResult =
  | { outcome: 'ended'; status: TerminalStatus; wokenParents?: readonly string[] }
  | { outcome: 'not-running'; status?: TerminalStatus }
  | { outcome: 'superseded' };

/** Executions the whole service has accepted and ended since its Redis was new. */
export interface ExecutionCounts {
  started: number;
  ended: Record<TerminalStatus, number>;
}

/**
 * - `handed-back`: waiting in the queue again, no longer held (or handed back by this very call before);
 * - `not-running`: nothing changed, it has ended (or is gone);
 * - `superseded`: nothing changed, another take has happened since this lease.
 */
/**
 * What a termination request found (`status`, as it was) and whether it ended the execution now;
 * `wokenParents` as an end's (EndResult).
 */
export interface TerminationRequest {
  status: ExecutionStatus;
  ended: boolean;
  wokenParents?: readonly string[];
}

export type HandBackResult = 'handed-back' | 'not-running' | 'superseded';
export type SuspendResult = 'suspended' | 'not-running' | 'superseded';
/** How a call back came out: delivered to its run; for a run that ended; or no such call back. */
export type CallbackDelivery = { outcome: 'delivered'; executionId: string } | { outcome: 'not-running' } | { outcome: 'unknown' };

export interface SuspendRequest {
  /** When the wait is due, epoch milliseconds. */
  untilMs: number;
  /** A wait for a call back: its token, its step's address, when it expires, the outputs so far (with the URL). */
  callback?: { token: string; address: string; expiresAtMs: number; outputs: Record<string, string> };
  /** A top-level step's wait: its progress entries, appended to the progress like a block's. */
  waitEntries?: readonly (readonly [string, unknown])[];
  /** Run events not yet written (the wait's `wait.started` among them). */
  runEvents?: readonly RunEvent[];
  /** The child executions the run waits for: it is due at once when one has ended already, and when one ends. */
  children?: readonly string[];
}

/** A suspended run past its due time, and that time (epoch ms). */
export interface OverdueWait {
  id: string;
  dueMs: number;
}

/** Where a scan of overdue waits goes on: from due time `dueMs`, past the first `skip` runs due then. */
export interface OverduePlace {
  dueMs: number;
  skip: number;
}

/**
 * Where a scan goes on after `page` (read from `from`, at most `limit`): undefined once a page
 * came short, the scan's end. Runs due at the same time as the page's last are told apart by how
 * many of them it has passed, this page's and those before it.
 */
export function overduePlaceAfter(page: readonly OverdueWait[], limit: number, from: OverduePlace | undefined): OverduePlace | undefined {
  const last = page.at(-1);
  if (page.length < limit || last === undefined) return undefined;
  const passed = page.filter((wait) => wait.dueMs === last.dueMs).length;
  return { dueMs: last.dueMs, skip: passed + (from?.dueMs === last.dueMs ? from.skip : 0) };
}

/**
 * The life of an execution in Redis, one method per transition: `accept` (RUNNING, waiting for a
 * take) → `take` (held by a worker under a lease; or deferred) → `checkpoint` after each step →
 * `handBack` (waiting again) or `end` (a terminal status). `requestTermination` ends it at once
 * when no worker holds it, or flags it to stop after its current step. Each transition is one Lua script of `lua/`, named after it.
 */
export interface ExecutionStore {
  /** Records a new execution RUNNING, waiting for a take, within the account's quota and budget. */
  accept(execution: NewExecution, options: AcceptOptions): Promise<AcceptResult>;
  /**
   * Accepts many plain executions (no Idempotency-Key, parent, redrive or call-back) in one script
   * call, each as `accept` would, with its own result in order.
   */
  acceptMany(executions: readonly NewExecution[], options: Pick<AcceptOptions, 'maxRunningPerAccount' | 'maxStoredBytesPerAccount'>): Promise<AcceptResult[]>;
  get(id: string): Promise<ExecutionRecord | undefined>;
  /** An ended record with the progress it kept (end-record.lua), read together; undefined when gone. */
  redriveSource(id: string): Promise<RedriveSource | undefined>;
  /**
   * The fields a status answer needs (`output` only with `withOutputs`, otherwise {}): a status poll
   * then never carries the inputs, results or outputs of a run over the wire.
   */
  summary(id: string, options: { withOutputs: boolean }): Promise<ExecutionSummary | undefined>;
  /**
   * With REDIS_REPLICA_ACKS: waits until that many replicas hold every write the execution's
   * primary has made so far, by whatever process (a worker's end that a synchronous caller is
   * about to be told of); fails with ReplicationShortError past the acknowledgement's time-out.
   * Without replica acks it returns at once.
   */
  confirmReplicated(id: string): Promise<void>;
  /** The inputs a run keeps sealed (sealed-inputs.ts), undefined when it has none. */
  sealedInputs(id: string): Promise<string | undefined>;
  /** The run an account's Idempotency-Key started, and the digest of what it asked for, while its record is kept. */
  idempotencyEntry(account: string, key: string): Promise<{ executionId: string; requestDigest: string } | undefined>;
  /**
   * A worker takes a RUNNING execution under a lease (a token unique to this take); any earlier
   * lease is void from now on.
   */
  take(id: string, take: TakeRequest): Promise<TakeResult>;
  /**
   * Records progress after completed top-level steps (`nextStep` the next one to run): their
   * results appended to the progress, what their blocks and waits recorded there deleted, the
   * outputs so far, atomically with the checks of status, lease and termination, and appends the
   * step events given to the step history.
   */
  checkpoint(
    id: string,
    checkpoint: TopLevelCheckpoint,
    lease: string,
    stepEvents?: readonly StepEvent[],
    runEvents?: readonly RunEvent[],
  ): Promise<CheckpointResult>;
  /**
   * Appends progress inside a block (steps and iterations completed since the last call), with
   * the same checks: what is stored already is never written again. The step events given are
   * appended to the step history.
   */
  recordProgress(
    id: string,
    delta: CheckpointDelta,
    lease: string,
    stepEvents?: readonly StepEvent[],
    runEvents?: readonly RunEvent[],
  ): Promise<CheckpointResult>;
  /**
   * Adds run events alone (the start of a step with an effect, before it runs), with the same
   * checks as a checkpoint.
   */
  recordRunEvents(id: string, lease: string, runEvents: readonly RunEvent[]): Promise<CheckpointResult>;
  /** The execution's step history, in the order written (empty when it has none, or it expired). */
  stepHistory(id: string): Promise<StepHistory>;
  /** The execution's progress log, by address: its completed steps' results, a block's entries, a wait's (empty before its first write). */
  progress(id: string): Promise<Map<string, unknown>>;
  /** Moves a RUNNING execution to a terminal status: the one compare-and-set through which every execution ends. */
  end(id: string, request: EndRequest): Promise<EndResult>;
  /** Whether termination of the execution has been requested (its flag is set). */
  terminationRequested(id: string): Promise<boolean>;
  /**
   * Terminates a RUNNING execution and its running descendants: one no worker holds ends
   * TERMINATED_MANUALLY now (`ended`), one a worker holds is flagged to stop after its current
   * step. Returns the status it had, undefined when there is no such execution.
   */
  requestTermination(id: string): Promise<TerminationRequest | undefined>;
  /**
   * Hands a RUNNING execution back (host '' again, out of its account's executing set) when the
   * lease is still the current one.
   */
  handBack(id: string, lease: string): Promise<HandBackResult>;
  /**
   * Suspends a RUNNING execution in a durable wait until `untilMs` (host '' again, out of its
   * account's executing set, in the waiting set) when the lease is still the current one; its
   * checkpoint and the wait's due time must be stored already.
   */
  suspend(id: string, lease: string, request: SuspendRequest): Promise<SuspendResult>;
  /** Whether a call back has come for the step at `address` of a suspended run. */
  callbackDelivered(id: string, address: string): Promise<boolean>;
  /**
   * Whether a run suspended until `dueMs` has been made due sooner (a child it waits for has ended):
   * its place among the waiting is before that time. False when it is not suspended.
   */
  waitIsDue(id: string, dueMs: number): Promise<boolean>;
  /**
   * Suspended runs due at or before `dueBy` that no take has resumed yet, each with its due time,
   * at most `limit`, the longest due first, from `from` when given (a scan's next page): a job that
   * stayed delayed past its run's due time (its promotion lost) is among them.
   */
  overdueWaits(dueBy: number, limit: number, from?: OverduePlace): Promise<OverdueWait[]>;
  /**
   * Delivers a call back to the run waiting for it, once: `body` becomes its step's result. The
   * caller makes the run's job due when it is delivered.
   */
  deliverCallback(token: string, body: unknown): Promise<CallbackDelivery>;
  /** How many RUNNING executions are suspended in a durable wait: in all, and of them waiting for a call back. */
  countWaiting(): Promise<{ total: number; forCallBack: number }>;
  /** How many executions are RUNNING, in every account: queued, executing or waiting. */
  countAllRunning(): Promise<number>;
  /** The RUNNING executions of one account, read field by field: never their inputs, results or outputs. */
  listRunning(account: string): Promise<RunningExecution[]>;
  /** Ids of all RUNNING executions with their start times, oldest first. */
  runningIds(limit?: number): Promise<{ id: string; starttime: number }[]>;
  /**
   * RUNNING executions that started after `afterStarttime` (exclusive; omitted: from the first) and
   * at or before `upToStarttime`, oldest first, at most `limit` (omitted: all): one page of a walk
   * through them.
   */
  runningBetween(range: { afterStarttime?: number; upToStarttime: number; limit?: number }): Promise<{ id: string; starttime: number }[]>;
  countRunning(account: string): Promise<number>;
  /** What the account's budget of stored bytes counts at `now`. */
  storedBytes(account: string, now?: number): Promise<number>;
  /**
   * Takes out of the running indexes an id whose record is gone (deleted by hand, lost): it would
   * otherwise hold a place in its account's quota, and in the reconciler's list, for ever. Its
   * account is unknown without the record, so every account's set is cleaned; ids are unique.
   */
  forgetLostRecord(id: string): Promise<boolean>;
  /** What the scripts that accept and end executions have counted, for every process together. */
  counts(): Promise<ExecutionCounts>;
}

/** Takes whose last written event this process remembers, at most: a worker runs far fewer at once. */
const MAX_TAKES_REMEMBERED = 10_000;

export function createExecutionStore(deps: {
  redis: Redis;
  keys: KeySpace;
  retentionSeconds: number;
  /** How much of each execution's step history is kept (DEFAULT_STEP_HISTORY_BOUNDS when absent). */
  stepHistoryBounds?: StepHistoryBounds;
  /** About how many run events each execution's stream keeps (DEFAULT_RUN_EVENTS_BOUND when absent). */
  runEventsBound?: number;
  /** Opens the inputs a run took from a preset when a worker takes it; a worker's store has it. */
  cipher?: SecretCipher;
  /**
   * REDIS_REPLICA_ACKS: an accept, a checkpoint (and a block's progress, a suspension) and an end
   * count as made once this many replicas hold them.
   */
  replicaAcks?: ReplicaAcks;
  /**
   * With more than one shard: the account's limits over all of them, in the control slot. The
   * store then reserves each run there before its shard's script accepts it with no limit of its
   * own, and lets the reservation go at the run's end (account-reservations.ts).
   */
  reservations?: AccountReservations;
  /** Tests only: holds the process between the control slot's write and the shard's (store-crash-seam.ts). */
  atSeam?: StoreCrashSeamHook;
}): ExecutionStore {
  const { redis, keys, retentionSeconds, reservations } = deps;
  // With shards, the control slot's counters hold the account's stored bytes, counted by the
  // reservations: a shard's scripts leave them alone (`bytes_elsewhere`).
  const reserving = () => reservations?.inUse() === true;
  // Whether this process's takes limit an account's executing runs (MAX_EXECUTING_PER_ACCOUNT): a
  // hand-back or a suspension then lets its place go.
  let limitsExecuting = false;
  const letGoOfExecuting = async (id: string) => {
    if (!limitsExecuting || !reservations || !reserving()) return;
    const account = await redis.hget(keys.execution(id), RECORD_FIELDS.account);
    if (account) await reservations.releaseExecuting(id, account);
  };
  const bounds = deps.stepHistoryBounds ?? DEFAULT_STEP_HISTORY_BOUNDS;
  const runEventsBound = deps.runEventsBound ?? DEFAULT_RUN_EVENTS_BOUND;
  const runEventsChannel = keys.runEventsChannel();
  // The command the scripts publish run events and ends with: sharded on a Cluster (pub-sub.ts).
  const publish = publishCommand(redis);
  const joinedRunEvents = (events: readonly RunEvent[] | undefined) =>
    events === undefined || events.length === 0 ? '' : joinRunEvents(events.map(encodeRunEvent));
  // The event each take in this process wrote last to its execution's history, by execution: its
  // next events are written relative to it (step-history.ts). Forgotten when the run ends here; a
  // take that leaves otherwise (handed back, superseded) is forgotten with the rest when there are
  // too many, which costs the next write of a take a few bytes, no more.
  const lastWritten = new Map<string, { lease: string; event: PreviousStepEvent }>();
  const encodeEvents = (id: string, lease: string | undefined, events: readonly StepEvent[] | undefined) => {
    if (events === undefined || events.length === 0) return [];
    const written = lastWritten.get(id);
    return encodeStepEvents(events, written !== undefined && written.lease === lease ? written.event : undefined);
  };
  const eventsWritten = (id: string, lease: string, events: readonly StepEvent[] | undefined) => {
    const last = events?.at(-1);
    if (last === undefined) return;
    if (lastWritten.size >= MAX_TAKES_REMEMBERED && !lastWritten.has(id)) lastWritten.clear();
    lastWritten.set(id, { lease, event: { host: last.host, start: last.start } });
  };
  const run = registerScripts(redis, {
    ...(deps.replicaAcks ? { replicaAcks: deps.replicaAcks } : {}),
    acknowledged: ['acceptExecution', 'checkpointExecution', 'recordProgress', 'suspendExecution', 'endExecution', 'requestTermination'],
  });

  const historyKeys = historyKeyTemplates(keys);
  const webhookKeys = { events: keys.accountWebhookEvents(''), outbox: keys.webhookOutbox() };
  const { accept, acceptMany } = createExecutionAcceptance({
    redis,
    keys,
    run,
    retentionSeconds,
    ...(reservations ? { reservations } : {}),
    reserving,
    scriptArguments: { history: historyKeys, webhooks: webhookKeys, run_events_bound: runEventsBound, run_events_channel: runEventsChannel, publish },
    ...(deps.atSeam ? { atSeam: deps.atSeam } : {}),
  });
  /**
   * The named arguments every script that ends executions takes alike (end-execution.lua,
   * request-termination.lua; end-record.lua and terminate-descendants.lua read them as `ctx`).
   */
  const endingArguments = (now: number, window: StorageWindow) => ({
    now: String(now),
    retention_seconds: retentionSeconds,
    window_ms: window.lengthMs,
    bytes_elsewhere: reserving(),
    worker_executions: keys.workerExecutions(''),
    ended_channel: keys.executionEndedChannel(),
    child_ended_channel: keys.childEndedChannel(),
    termination_channel: keys.terminationRequestedChannel(),
    legacy_termination_channel: keys.legacyTerminationRequestedChannel(),
    history: historyKeys,
    run_events_bound: runEventsBound,
    run_events_channel: runEventsChannel,
    publish,
    webhooks: webhookKeys,
  });

  async function takeOne(id: string, take: TakeRequest): Promise<TakeResult> {
    const reply = await run(
      'takeExecution',
      [keys.execution(id)],
      [
        JSON.stringify({
          host: take.host,
          worker: take.workerId,
          lease: take.lease,
          max_executing: take.maxExecutingPerAccount ?? 0,
          now: take.now ?? Date.now(),
          account_executing: keys.accountExecuting(''),
          account_running: keys.accountRunning(''),
          account_rows: keys.accountRunningRows(''),
          execution_prefix: keys.execution(''),
          worker_executions: keys.workerExecutions(''),
          worker_executions_ttl: HEARTBEAT_TTL_MS,
          waiting: keys.waiting(),
          waiting_for_call_back: keys.waitingForCallBack(),
        }),
      ],
    );
    // A deferral is integers; a record's fields and values are strings.
    if (Array.isArray(reply) && reply[0] === ScriptReply.Deferred) {
      return { outcome: 'deferred', deferrals: Number(reply[1]), waiting: Math.max(1, Number(reply[2])), deadline: Number(reply[3] ?? 0) };
    }
    const record = decodeExecution(pairsToObject(reply));
    if (!record) return { outcome: 'missing' };
    if (record.sealedInputs !== undefined && !isTerminal(record.status)) {
      // Thrown, the take fails like any fault of the processor: retried, then the run ends ERROR.
      if (!deps.cipher) throw new Error('this run took inputs from a preset, and this worker has no SECRETS_KEY to read them with');
      record.inputs = { ...openRunInputs(deps.cipher, record.id, record.sealedInputs), ...record.inputs };
    }
    return { outcome: isTerminal(record.status) ? 'ended' : 'taken', record };
  }

  async function get(id: string): Promise<ExecutionRecord | undefined> {
    return decodeExecution(await redis.hgetall(keys.execution(id)));
  }

  return {
    accept,
    acceptMany,
    get,

    async redriveSource(id) {
      const [[recordError, hash], [progressError, progress]] = ((await redis.multi().hgetall(keys.execution(id)).hgetall(keys.executionProgress(id)).exec()) ??
        []) as [[Error | null, Record<string, string>], [Error | null, Record<string, string>]];
      if (recordError || progressError) throw recordError ?? progressError;
      const record = decodeExecution(hash);
      return record && { record, progress: Object.entries(progress) };
    },

    async summary(id, { withOutputs }) {
      const fields: string[] = withOutputs ? [...SUMMARY_FIELDS, RECORD_FIELDS.output] : [...SUMMARY_FIELDS];
      return decodeExecution(fieldsToObject(fields, await redis.hmget(keys.execution(id), ...fields)));
    },

    async confirmReplicated(id) {
      const acks = deps.replicaAcks;
      if (acks === undefined || acks.replicas <= 0) return;
      // WAIT counts this connection's own writes only: a write in the execution's slot, of a key
      // nobody reads, is this connection's write after every write made before it there. (A
      // message published would not do: on a Cluster it goes over the bus, not the replication
      // stream.) The key read routes the pipeline to the slot's node on a Cluster.
      const replies = (await redis
        .pipeline()
        .exists(keys.execution(id))
        .set(keys.replicationMark(), '1', 'PX', 60_000)
        .call('WAIT', acks.replicas, acks.timeoutMs)
        .exec()) as [Error | null, unknown][];
      for (const [error] of replies) if (error) throw error;
      const acknowledged = Number(replies[2]?.[1] ?? 0);
      if (acknowledged < acks.replicas) throw new ReplicationShortError('endExecution', acknowledged, acks.replicas);
    },

    async idempotencyEntry(account, key) {
      const entry = await redis.get(keys.idempotencyKey(account, hash('sha256', key)));
      if (entry === null) return undefined;
      const space = entry.indexOf(' ');
      return { executionId: entry.slice(0, space), requestDigest: entry.slice(space + 1) };
    },

    async sealedInputs(id) {
      return (await redis.hget(keys.execution(id), RECORD_FIELDS.sealedInputs)) ?? undefined;
    },

    async take(id, take) {
      const limit = take.maxExecutingPerAccount ?? 0;
      if (limit > 0) limitsExecuting = true;
      if (limit <= 0 || !reservations || !reserving()) return takeOne(id, take);
      // With shards, the account's executing runs are counted in the control slot: a place there
      // first, then the take on the shard with no limit of its own.
      const now = take.now ?? Date.now();
      const [status, account, flag, legacyFlag, deadline] = await redis.hmget(
        keys.execution(id),
        RECORD_FIELDS.status,
        RECORD_FIELDS.account,
        RECORD_FIELDS.terminationRequested,
        RECORD_FIELDS.legacyTerminationRequested,
        RECORD_FIELDS.deadline,
      );
      // A run whose termination was requested, or past its deadline, is taken all the same: it ends at once.
      const exempt = flag === '1' || legacyFlag === '1' || Number(deadline ?? 0) <= now;
      if (status !== 'RUNNING' || !account || exempt) return takeOne(id, { ...take, maxExecutingPerAccount: 0 });
      const placed = await reservations.reserveExecuting(id, account, limit);
      if (placed) await deps.atSeam?.('executing-reserved', id);
      if (!placed) {
        // As take-execution.lua defers: out of the waiting sets, one deferral more.
        const replies = (await redis
          .multi()
          .zrem(keys.waiting(), id)
          .zrem(keys.waitingForCallBack(), id)
          .hincrby(keys.execution(id), RECORD_FIELDS.deferrals, 1)
          .exec()) as [Error | null, unknown][];
        const [error, deferrals] = replies[2] ?? [new Error('no reply'), 0];
        if (error) throw error;
        const [running, executing] = await Promise.all([reservations.countRunning(account), reservations.countExecuting(account)]);
        return { outcome: 'deferred', deferrals: Number(deferrals), waiting: Math.max(1, running - executing), deadline: Number(deadline ?? 0) };
      }
      const taken = await takeOne(id, { ...take, maxExecutingPerAccount: 0 });
      if (taken.outcome !== 'taken') await reservations.releaseExecuting(id, account);
      return taken;
    },

    async checkpoint(id, checkpoint, lease, stepEvents, runEvents) {
      const events = encodeEvents(id, lease, stepEvents);
      const args: (string | number)[] = [
        JSON.stringify({
          lease,
          next_step: checkpoint.nextStep,
          step_events: events.length,
          superseded: checkpoint.superseded?.length ?? 0,
          history_first: bounds.first,
          history_last: bounds.last,
          run_events: joinedRunEvents(runEvents),
          run_events_bound: runEventsBound,
          run_events_channel: runEventsChannel,
          publish,
        }),
        JSON.stringify(checkpoint.outputs),
        ...events,
        ...(checkpoint.superseded ?? []),
      ];
      for (const [address, value] of checkpoint.entries) args.push(address, JSON.stringify(value));
      const reply = await run('checkpointExecution', [keys.execution(id), keys.executionProgress(id), keys.executionSteps(id), keys.executionEvents(id)], args);
      if (reply === ScriptReply.Done || reply === ScriptReply.DoneTerminationRequested) eventsWritten(id, lease, stepEvents);
      if (reply === ScriptReply.Done) return 'continue';
      if (reply === ScriptReply.DoneTerminationRequested) return 'termination-requested';
      if (reply === ScriptReply.Superseded) return 'superseded';
      if (reply === ScriptReply.NotRunning) return 'not-running';
      throw new Error(`checkpointExecution answered ${JSON.stringify(reply)}`);
    },

    async recordProgress(id, delta, lease, stepEvents, runEvents) {
      const events = encodeEvents(id, lease, stepEvents);
      const args: (string | number)[] = [
        lease,
        delta.entries.at(-1)?.[0] ?? '',
        events.length,
        bounds.first,
        bounds.last,
        joinedRunEvents(runEvents),
        runEventsBound,
        runEventsChannel,
        publish,
        ...events,
      ];
      for (const [address, value] of delta.entries) args.push(address, JSON.stringify(value));
      const reply = await run('recordProgress', [keys.execution(id), keys.executionProgress(id), keys.executionSteps(id), keys.executionEvents(id)], args);
      if (reply === ScriptReply.Done || reply === ScriptReply.DoneTerminationRequested) eventsWritten(id, lease, stepEvents);
      if (reply === ScriptReply.Done) return 'continue';
      if (reply === ScriptReply.DoneTerminationRequested) return 'termination-requested';
      if (reply === ScriptReply.Superseded) return 'superseded';
      if (reply === ScriptReply.NotRunning) return 'not-running';
      throw new Error(`recordProgress answered ${JSON.stringify(reply)}`);
    },

    async recordRunEvents(id, lease, runEvents) {
      const reply = await run(
        'recordProgress',
        [keys.execution(id), keys.executionProgress(id), keys.executionSteps(id), keys.executionEvents(id)],
        [lease, '', 0, bounds.first, bounds.last, joinedRunEvents(runEvents), runEventsBound, runEventsChannel, publish],
      );
      if (reply === ScriptReply.Done) return 'continue';
      if (reply === ScriptReply.DoneTerminationRequested) return 'termination-requested';
      if (reply === ScriptReply.Superseded) return 'superseded';
      if (reply === ScriptReply.NotRunning) return 'not-running';
      throw new Error(`recordProgress answered ${JSON.stringify(reply)}`);
    },

    async progress(id) {
      const stored = await redis.hgetall(keys.executionProgress(id));
      return new Map(Object.entries(stored).map(([address, json]) => [address, JSON.parse(json) as unknown]));
    },

    async stepHistory(id) {
      const [[fieldError, field], [listError, list]] = ((await redis
        .multi()
        .hget(keys.execution(id), RECORD_FIELDS.stepHistory)
        .lrange(keys.executionSteps(id), 0, -1)
        .exec()) ?? []) as [[Error | null, string | null], [Error | null, string[]]];
      if (fieldError || listError) throw fieldError ?? listError;
      return decodeStepHistory(list, field);
    },

    async end(id, request) {
      // The account is needed for its running set; reading it first is safe because it never changes.
      const account = request.account ?? (await redis.hget(keys.execution(id), RECORD_FIELDS.account));
      if (account === null) return { outcome: 'not-running' };
      const now = request.now ?? Date.now();
      const window = storageWindow(now, retentionSeconds);
      const end = {
        status: request.status,
        ...endingArguments(now, window),
        error: request.error ?? '',
        id,
        lease: request.lease ?? '',
        next_step: request.nextStep === undefined ? '' : String(request.nextStep),
        untaken_by_host: request.untakenBy?.host ?? '',
        untaken_by_worker: request.untakenBy?.workerId ?? '',
        account,
        history_first: bounds.first,
        history_last: bounds.last,
      };
      const [code, status, outputBytes, woken, ...ended] = (await run(
        'endExecution',
        [
          keys.execution(id),
          keys.running(),
          keys.accountRunning(account),
          keys.accountStoredBytes(account, window.index),
          keys.accountExecuting(account),
          keys.accountRunningRows(account),
          keys.executionCounts(),
          keys.executionProgress(id),
          keys.executionSteps(id),
          keys.waiting(),
          keys.executionChildren(id),
          keys.waitingForCallBack(),
          keys.executionEvents(id),
        ],
        [
          JSON.stringify(end),
          request.outputs ? JSON.stringify(request.outputs) : '',
          joinedRunEvents(request.runEvents),
          ...encodeEvents(id, request.lease, request.stepEvents),
        ],
      )) as [number, string, number?, string?, ...string[]];
      lastWritten.delete(id);
      if (code === ScriptReply.Superseded) return { outcome: 'superseded' };
      if (code === ScriptReply.Done) {
        // It and the descendants its end ended let their places go (every descendant runs for its root's account).
        if (reservations && reserving()) {
          await deps.atSeam?.('ended-unreleased', id);
          await reservations.release(ended.length > 0 ? ended : [id], account, { storedBytes: Number(outputBytes ?? 0), now });
        }
        return { outcome: 'ended', status: status as TerminalStatus, ...wokenParents(woken) };
      }
      return { outcome: 'not-running', ...(status ? { status: status as TerminalStatus } : {}) };
    },

    async terminationRequested(id) {
      const flags = await redis.hmget(keys.execution(id), RECORD_FIELDS.terminationRequested, RECORD_FIELDS.legacyTerminationRequested);
      return flags.includes('1');
    },

    async requestTermination(id) {
      const now = Date.now();
      const window = storageWindow(now, retentionSeconds);
      // The stored bytes' key has the account inside: the script puts it between these parts.
      const storedBytes = keys.accountStoredBytes(ACCOUNT_MARK, window.index).split(ACCOUNT_MARK);
      const reply = (await run(
        'requestTermination',
        [
          keys.execution(id),
          keys.running(),
          keys.waiting(),
          keys.executionCounts(),
          keys.executionProgress(id),
          keys.executionSteps(id),
          keys.executionChildren(id),
          keys.waitingForCallBack(),
          keys.executionEvents(id),
        ],
        [
          JSON.stringify({
            ...endingArguments(now, window),
            id,
            account_rows: keys.accountRunningRows(''),
            account_running: keys.accountRunning(''),
            account_executing: keys.accountExecuting(''),
            stored_bytes_before: storedBytes[0] ?? '',
            stored_bytes_after: storedBytes[1] ?? '',
          }),
        ],
      )) as [string, number, string?, number?, string?, ...string[]];
      const [, , account, bytes, woken, ...ended] = reply;
      if (ended.length > 0 && account && reserving()) await reservations?.release(ended, account, { storedBytes: Number(bytes ?? 0), now });
      return reply[0] ? { status: reply[0] as ExecutionStatus, ended: reply[1] === 1, ...wokenParents(woken) } : undefined;
    },

    async handBack(id, lease) {
      const reply = await run(
        'handBackExecution',
        [keys.execution(id)],
        [lease, keys.accountExecuting(''), keys.accountRunningRows(''), keys.workerExecutions('')],
      );
      if (reply === ScriptReply.Done) await letGoOfExecuting(id);
      if (reply === ScriptReply.Done) return 'handed-back';
      if (reply === ScriptReply.Superseded) return 'superseded';
      return 'not-running';
    },

    async suspend(id, lease, { untilMs, callback, waitEntries, runEvents, children }) {
      const reply = await run(
        'suspendExecution',
        [keys.execution(id), keys.waiting(), keys.waitingForCallBack(), keys.executionEvents(id), keys.executionChildren(id)],
        [
          JSON.stringify({
            lease,
            due: untilMs,
            account_executing: keys.accountExecuting(''),
            account_rows: keys.accountRunningRows(''),
            worker_executions: keys.workerExecutions(''),
            callback_entry: callback ? keys.callback(callbackTokenDigest(callback.token)) : '',
            callback_address: callback?.address ?? '',
            callback_entry_address: callback ? callbackAddress(callback.address) : '',
            callback_expires_at: callback?.expiresAtMs ?? 0,
            progress: keys.executionProgress(id),
            run_events: joinedRunEvents(runEvents),
            run_events_bound: runEventsBound,
            run_events_channel: runEventsChannel,
            publish,
            children: children ?? [],
            now: Date.now(),
          }),
          callback ? JSON.stringify(callback.outputs) : '',
          ...(waitEntries ?? []).flatMap(([address, value]) => [address, JSON.stringify(value)]),
        ],
      );
      if (reply === ScriptReply.Done) await letGoOfExecuting(id);
      if (reply === ScriptReply.Done) return 'suspended';
      if (reply === ScriptReply.Superseded) return 'superseded';
      return 'not-running';
    },

    async callbackDelivered(id, address) {
      return (await redis.hexists(keys.executionProgress(id), callbackAddress(address))) === 1;
    },

    async waitIsDue(id, dueMs) {
      // Compared with the suspension's own due time, not this process's clock: the end that made it
      // due wrote its own now, and clocks a few milliseconds apart must not hide it.
      const due = await redis.zscore(keys.waiting(), id);
      return due !== null && Number(due) < dueMs;
    },

    async overdueWaits(dueBy, limit, from) {
      const reply = await redis.zrangebyscore(keys.waiting(), from?.dueMs ?? '-inf', dueBy, 'WITHSCORES', 'LIMIT', from?.skip ?? 0, limit);
      const waits: OverdueWait[] = [];
      for (let at = 0; at + 1 < reply.length; at += 2) waits.push({ id: reply[at] as string, dueMs: Number(reply[at + 1]) });
      return waits;
    },

    async deliverCallback(token, body) {
      const entry = keys.callback(callbackTokenDigest(token));
      const target = await redis.get(entry);
      const separator = target?.indexOf('\n') ?? -1;
      if (target === null || target === undefined || separator < 0) return { outcome: 'unknown' };
      const executionId = target.slice(0, separator);
      const address = target.slice(separator + 1);
      const reply = await run(
        'deliverCallback',
        [keys.execution(executionId), keys.executionProgress(executionId), entry],
        [target, address, JSON.stringify({ body }), callbackAddress(address)],
      );
      if (reply === ScriptReply.Done) return { outcome: 'delivered', executionId };
      if (reply === ScriptReply.NotRunning) return { outcome: 'not-running' };
      return { outcome: 'unknown' };
    },

    async countWaiting() {
      const [total, forCallBack] = await Promise.all([redis.zcard(keys.waiting()), redis.zcard(keys.waitingForCallBack())]);
      return { total, forCallBack };
    },

    countAllRunning() {
      return redis.zcard(keys.running());
    },

    async listRunning(account) {
      // The rows, read with the set in one transaction: membership is the set's, kept by every
      // version; a row is what the list shows. A run without one (accepted before rows were kept)
      // is read from its record, and a row without a run (ended by a version that kept none) is
      // dropped.
      const [[idsError, ids], [rowsError, rows]] = ((await redis
        .multi()
        .smembers(keys.accountRunning(account))
        .hgetall(keys.accountRunningRows(account))
        .exec()) ?? []) as [[Error | null, string[]], [Error | null, Record<string, string>]];
      if (idsError || rowsError) throw idsError ?? rowsError;
      const members = new Set(ids);
      const records: RunningExecution[] = [];
      const unlisted: string[] = [];
      for (const id of ids) {
        const row = rows[id];
        if (row === undefined) unlisted.push(id);
        else records.push(decodeListRow(id, account, row));
      }
      const stale = Object.keys(rows).filter((id) => !members.has(id));
      if (stale.length > 0) await redis.hdel(keys.accountRunningRows(account), ...stale);
      if (unlisted.length > 0) {
        const pipeline = redis.pipeline();
        for (const id of unlisted) pipeline.hmget(keys.execution(id), ...RUNNING_FIELDS);
        for (const [error, values] of (await pipeline.exec()) ?? []) {
          if (error) throw error;
          const record = decodeExecution(fieldsToObject(RUNNING_FIELDS, values as (string | null)[]));
          if (record && !isTerminal(record.status)) records.push(record);
        }
      }
      return records.sort((a, b) => a.starttime - b.starttime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },

    async runningIds(limit = 1000) {
      return startedAt(await redis.zrange(keys.running(), '0', String(limit - 1), 'WITHSCORES'));
    },

    async runningBetween({ afterStarttime, upToStarttime, limit }) {
      const min = afterStarttime === undefined ? '-inf' : `(${afterStarttime}`;
      return startedAt(await redis.zrangebyscore(keys.running(), min, upToStarttime, 'WITHSCORES', 'LIMIT', 0, limit ?? -1));
    },

    countRunning(account) {
      return redis.scard(keys.accountRunning(account));
    },

    async forgetLostRecord(id) {
      if ((await redis.exists(keys.execution(id))) === 1) return false;
      const accounts = await redis.smembers(keys.accounts());
      const multi = redis.multi().zrem(keys.running(), id).zrem(keys.waiting(), id).zrem(keys.waitingForCallBack(), id);
      for (const account of accounts) multi.srem(keys.accountRunning(account), id).hdel(keys.accountRunningRows(account), id);
      await multi.exec();
      return true;
    },

    async storedBytes(account, now = Date.now()) {
      const window = storageWindow(now, retentionSeconds);
      const [current, previous] = await redis.mget(keys.accountStoredBytes(account, window.index), keys.accountStoredBytes(account, window.index - 1));
      return Math.round(slidingStoredBytes(Number(current ?? 0), Number(previous ?? 0), window, now));
    },

    async counts() {
      const fields = await redis.hgetall(keys.executionCounts());
      const ended = Object.fromEntries(TERMINAL_STATUSES.map((status) => [status, Number(fields[`ended:${status}`] ?? 0)]));
      return { started: Number(fields.started ?? 0), ended: ended as Record<TerminalStatus, number> };
    },
  };
}

/** The running set's ids with the start times they are scored by. */
const startedAt = (flat: string[]) => scoredIds(flat).map(({ id, score }) => ({ id, starttime: score }));

/** Stands for an account in a key's name, to split it where the account goes. */
const ACCOUNT_MARK = '\n';

/** The parents a script's end made due (end-record.lua: ids, one space between two), when there are any. */
function wokenParents(woken: string | undefined): { wokenParents?: readonly string[] } {
  return woken ? { wokenParents: woken.split(' ') } : {};
}
