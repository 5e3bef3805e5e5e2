import type { Principal } from '@ces/accounts';
import { bindInputs, type ChoreoDefinition } from '@ces/language';
import type { CatalogueEntry } from '@ces/catalogue';
import {
  acceptedRecord,
  idempotencyShardText,
  isTerminal,
  openRunInputs,
  redriveStart,
  sendAcceptance,
  type AcceptOptions,
  type AcceptResult,
  type DefinitionStore,
  type EndWatch,
  type ExecutionEvents,
  type ExecutionQueues,
  type ExecutionRecord,
  type ExecutionStore,
  type NewExecution,
  type RedriveStart,
  type ScheduledBy,
  type SecretCipher,
  type ShardLayout,
  newExecutionId,
} from '@ces/store';
import type { Logger } from '@ces/observability';
import { ApiError } from '../errors/api-error.ts';
import { TimeoutError, withTimeout } from '../with-timeout.ts';
import type { RunRequest } from '../formats/run-request.ts';
import { isExecutionVisible } from './visibility.ts';
import { sealInputs, withPresetInputs, type PresetInputs } from './preset-inputs.ts';
import { runRequestDigest } from './run-request-digest.ts';

export interface RunLauncherConfig {
  syncWaitMs: number;
  maxRunningPerAccount: number;
  /** Bytes an account's executions may store over the retention period (0: no limit). */
  maxStoredBytesPerAccount: number;
  defaultTimeLimitSeconds: number;
  /** Seconds a client should wait before retrying a refused run. */
  quotaRetryAfterSeconds: number;
  /** Longest wait for Redis to record a run given with an Idempotency-Key (none without). */
  acceptTimeoutMs?: number;
}

export interface RunLauncherDeps {
  /** Told of what goes wrong after a run is recorded, which its caller is not (it gets a 202). */
  logger?: Pick<Logger, 'warn'>;
  /** Where runs are accepted: on the connection their jobs go out on, so that each record reaches Redis first. */
  accepting: ExecutionStore;
  /** Where a synchronous run reads its end (with its outputs), and a replay its execution. */
  waits: ExecutionStore;
  definitions: DefinitionStore;
  /** Every shard's queue; and where a new run goes (shard-layout.ts). */
  queues: ExecutionQueues;
  layout: ShardLayout;
  events: ExecutionEvents;
  config: RunLauncherConfig;
  /** Where a run's `preset` is read from; without it, a run naming one is answered 503. */
  presetInputs?: PresetInputs;
  /** Opens what a redriven run keeps sealed, to seal it again for its redrive; without it, such a redrive is answered 503. */
  cipher?: SecretCipher;
}

export interface LaunchOptions {
  wait: boolean;
  sourceId: string;
  storeResults: boolean;
  /** The client's key for retrying safely: a run given again with it is not started twice. */
  idempotencyKey?: string;
  /** The version of the account's own Choreo being run, recorded with the run. */
  choreoVersion?: number;
  /** The public address the run's URLs are made under (public-base-url.ts), recorded with the run. */
  publicBaseUrl?: string;
  /** The run's own call-back (`?notify=`): its end is delivered there, signed with the account's notify secret. */
  notifyUrl?: string;
  /**
   * A schedule's tick: the run's id is derived from it (tickExecutionId), so the same tick started
   * again answers with its run (`replayed`) and starts nothing new.
   */
  tick?: { executionId: string; schedule: ScheduledBy };
}

export interface RedriveOptions {
  /** The client's key for retrying safely, as for a run. */
  idempotencyKey?: string;
  /** The public address the redrive's URLs are made under. */
  publicBaseUrl?: string;
}

export interface LaunchResult {
  record: ExecutionRecord;
  /** True when the run ended within the wait; false when it goes on asynchronously. */
  ended: boolean;
  /** True when the Idempotency-Key had started this execution already, and nothing new was. */
  replayed?: boolean;
}

function refusal(refused: AcceptResult, config: RunLauncherConfig): ApiError {
  if (refused.outcome === 'larger-than-budget') {
    return new ApiError(
      'PAYLOAD_TOO_LARGE',
      `This run would store more than the ${config.maxStoredBytesPerAccount} bytes the account may keep over the retention period.`,
      {
        limit: 'stored-bytes',
      },
    );
  }
  if (refused.outcome === 'budget-exceeded') {
    return new ApiError('TOO_MANY_REQUESTS', 'The executions of this account have stored all it may keep over the retention period.', {
      headers: { 'Retry-After': String(refused.retryAfterSeconds) },
      limit: 'stored-bytes',
    });
  }
  return new ApiError('TOO_MANY_REQUESTS', `This account already has ${config.maxRunningPerAccount} executions running.`, {
    headers: { 'Retry-After': String(config.quotaRetryAfterSeconds) },
    limit: 'running-executions',
  });
}

/**
 * The bound inputs split in two: those kept in the record as they are, and those kept sealed —
 * taken from the run's preset and not overridden, or declared `secret` by the Choreo (a token to
 * store); `sealed` is undefined when there are none.
 */
function splitSealedInputs(definition: ChoreoDefinition, bound: Record<string, string>, own: Record<string, string>, preset: Record<string, string>) {
  const kept: Record<string, string> = {};
  const sealed: Record<string, string> = {};
  for (const [name, value] of Object.entries(bound)) {
    const fromPreset = Object.hasOwn(preset, name) && !Object.hasOwn(own, name);
    if (fromPreset || definition.inputs[name]?.secret === true) sealed[name] = value;
    else kept[name] = value;
  }
  return { own: kept, sealed: Object.keys(sealed).length > 0 ? sealed : undefined };
}

/**
 * How long the read of a run's record may take once its wait is over, before it is answered 202:
 * a bound for a Redis that stalls, far above what a healthy one takes for the largest record.
 */
const READ_AFTER_WAIT_MS = 5_000;

export interface RunLauncher {
  launch(principal: Principal, entry: CatalogueEntry, request: RunRequest, options: LaunchOptions): Promise<LaunchResult>;
  /**
   * Starts a new execution of the run `executionId` (ended ERROR or TERMINATED_LIMIT) with its
   * definition, options and inputs (the request's replacing some), from what it completed: 404 when
   * the principal may not see it, 409 when it cannot be redriven (now). Answered as accepted.
   */
  redrive(principal: Principal, executionId: string, request: RunRequest, options: RedriveOptions): Promise<LaunchResult>;
}

/** Statuses a run may be redriven from. */
const REDRIVABLE = new Set(['ERROR', 'TERMINATED_LIMIT']);

function notRedrivable(id: string, status: string): ApiError {
  return status === ''
    ? new ApiError('NOT_FOUND', 'No such execution.')
    : new ApiError(
        'CONFLICT',
        `Execution ${id} ${status === 'RUNNING' ? 'is still RUNNING' : `ended ${status}`}: only a run that ended ERROR or TERMINATED_LIMIT can be redriven.`,
      );
}

/**
 * Accepts a run: checks it, snapshots the definition, records the execution as RUNNING and queues
 * it; then, for a synchronous run, waits for its end up to the configured time. The wait never
 * cancels anything: a run still going when it ends is answered 202 and carries on.
 */
export function createRunLauncher(deps: RunLauncherDeps): RunLauncher {
  const { accepting, waits, definitions, queues, layout, events, config } = deps;

  function watchEnd(id: string): EndWatch {
    return events.watchEnd(id, async () => {
      // Polled every second while it waits: the status fields alone, never the inputs.
      const current = await waits.summary(id, { withOutputs: false });
      return current !== undefined && isTerminal(current.status);
    });
  }

  /**
   * The execution an Idempotency-Key started before, answered as its run would be now: waited for
   * when the run is, as far as a new one would be (its end is not published, so the wait polls).
   */
  async function replay(id: string, wait: boolean): Promise<LaunchResult> {
    const ending = wait ? watchEnd(id) : undefined;
    let record: ExecutionRecord | undefined;
    try {
      record = await waits.get(id);
    } catch (error) {
      ending?.cancel();
      throw error;
    }
    if (record === undefined) {
      ending?.cancel();
      throw new ApiError('CONFLICT', 'The execution this Idempotency-Key started is no longer kept. Use a new key to run again.');
    }
    if (!ending || isTerminal(record.status)) {
      ending?.cancel();
      return { record, ended: isTerminal(record.status), replayed: true };
    }
    const current = (await waitForEnd(ending, id)) ?? record;
    return { record: current, ended: isTerminal(current.status), replayed: true };
  }

  /**
   * Waits for Redis to record a run. Without an Idempotency-Key it waits as long as that takes: the
   * record may still be written after any timeout, and "retry" would start the run twice. With one,
   * a retry is answered with this run, so a Redis that stalls is answered 503 after
   * `acceptTimeoutMs`, as other requests are.
   */
  async function waitForAcceptance(id: string, accepting: Promise<AcceptResult>, retrySafe: boolean): Promise<AcceptResult> {
    if (!retrySafe || config.acceptTimeoutMs === undefined) return accepting;
    accepting.catch(() => {});
    try {
      return await withTimeout(accepting, config.acceptTimeoutMs);
    } catch (error) {
      if (!(error instanceof TimeoutError)) throw error;
      deps.logger?.warn({ executionId: id }, 'Redis did not record a run with an Idempotency-Key in time; answered 503, and the run may still start');
      void accepting.then(
        (result) => deps.logger?.warn({ executionId: id, outcome: result.outcome }, 'Redis answered late for a run answered 503 (accepted: it runs)'),
        () => {},
      );
      throw new ApiError('SERVICE_UNAVAILABLE', undefined, { headers: { 'Retry-After': '2' } });
    }
  }

  /**
   * The ended record, or the current one at the end of the wait: undefined when Redis cannot say
   * (down, or stalled past READ_AFTER_WAIT_MS: the wait is the caller's bound, not Redis's), or
   * when the replicas REDIS_REPLICA_ACKS asks for do not hold the end in time: a caller is told a
   * run ended only once a failover could not take the end back.
   */
  async function waitForEnd(ending: EndWatch, id: string): Promise<ExecutionRecord | undefined> {
    try {
      const { record: ended } = await ending.wait(config.syncWaitMs);
      const record = ended ?? (await withTimeout(waits.get(id), READ_AFTER_WAIT_MS));
      if (record !== undefined && isTerminal(record.status)) await waits.confirmReplicated(id);
      return record;
    } catch (error) {
      deps.logger?.warn({ executionId: id, err: error }, 'could not read a synchronous run after its wait; answered as accepted');
      return undefined;
    }
  }

  return {
    async launch(principal, entry, request, options) {
      if (!entry.valid || !entry.definition) {
        throw new ApiError('CONFLICT', `Choreo ${entry.id} is not valid and cannot run: ${entry.problems.join('; ')}`);
      }
      const definition = entry.definition;
      // Before anything is stored or queued: an unknown preset is 404.
      const given = await withPresetInputs(deps.presetInputs, principal.account, request);
      const bound = bindInputs(definition, given.inputs);
      if (!bound.ok) {
        throw new ApiError('BAD_REQUEST', `Required input${bound.missing.length > 1 ? 's' : ''} missing: ${bound.missing.join(', ')}.`);
      }
      const digest = entry.digest;
      await definitions.save(digest, definition);

      const starttime = Date.now();
      const timeLimitSeconds = definition.timeLimitSeconds ?? config.defaultTimeLimitSeconds;
      // A run given with an Idempotency-Key goes to the shard its key maps to, where a retry finds it.
      const shard = options.idempotencyKey !== undefined ? layout.pickFor(idempotencyShardText(principal.account, options.idempotencyKey)) : layout.pick();
      const id = options.tick?.executionId ?? newExecutionId(shard.index);
      const { own, sealed } = splitSealedInputs(definition, bound.inputs, request.inputs, given.preset);
      const accepted: NewExecution = {
        id,
        account: principal.account,
        choreo: entry.id,
        starttime,
        sourceId: options.sourceId,
        definitionDigest: digest,
        inputs: own,
        deadline: starttime + timeLimitSeconds * 1000,
        storeResults: options.storeResults,
        outputFilters: request.outputFilters,
        ...(options.choreoVersion !== undefined ? { choreoVersion: options.choreoVersion } : {}),
        ...(sealed ? { sealedInputs: sealInputs(deps.presetInputs, id, sealed) } : {}),
        ...(options.publicBaseUrl !== undefined ? { publicBaseUrl: options.publicBaseUrl } : {}),
        ...(options.tick !== undefined ? { schedule: options.tick.schedule } : {}),
      };
      return recordAndQueue(accepted, {
        wait: options.wait,
        ...(options.notifyUrl !== undefined ? { notifyUrl: options.notifyUrl } : {}),
        ...(options.idempotencyKey !== undefined
          ? {
              idempotency: {
                key: options.idempotencyKey,
                requestDigest: runRequestDigest(accepted, sealed && deps.presetInputs?.fingerprint(sealed), options.notifyUrl),
              },
            }
          : {}),
        // A job carries no sealed inputs: a run with a preset is taken, where its inputs are opened.
        instant: entry.instant && accepted.sealedInputs === undefined,
        ...(options.tick !== undefined ? { derivedId: true } : {}),
      });
    },

    async redrive(principal, executionId, request, options) {
      const source = await waits.redriveSource(executionId);
      if (!source || !isExecutionVisible(principal, source.record)) throw new ApiError('NOT_FOUND', 'No such execution.');
      const old = source.record;
      if (!REDRIVABLE.has(old.status)) throw notRedrivable(executionId, old.status);
      const snapshot = await definitions.load(old.definitionDigest);
      if (snapshot === undefined) {
        throw new ApiError(
          'CONFLICT',
          `The definition execution ${executionId} ran (${old.choreo}${old.choreoVersion !== undefined ? ` version ${old.choreoVersion}` : ''}) is no longer kept: it cannot be redriven.`,
        );
      }
      const definition = JSON.parse(snapshot) as ChoreoDefinition;
      // The run's inputs, its sealed ones opened, beneath the preset and inputs the request gives.
      const oldSealed = old.sealedInputs !== undefined ? openSealed(executionId, old.sealedInputs) : {};
      const given = await withPresetInputs(deps.presetInputs, principal.account, request);
      const bound = bindInputs(definition, { ...old.inputs, ...oldSealed, ...given.inputs });
      if (!bound.ok) {
        throw new ApiError('BAD_REQUEST', `Required input${bound.missing.length > 1 ? 's' : ''} missing: ${bound.missing.join(', ')}.`);
      }
      const starttime = Date.now();
      const timeLimitSeconds = definition.timeLimitSeconds ?? config.defaultTimeLimitSeconds;
      // On the shard of the run it redrives, whose record and progress its acceptance reads.
      const id = newExecutionId(layout.shardOf(executionId).index);
      // What was sealed stays sealed unless the request gives it anew.
      const { own, sealed } = splitSealedInputs(definition, bound.inputs, request.inputs, { ...oldSealed, ...given.preset });
      const accepted: NewExecution = {
        id,
        account: old.account,
        choreo: old.choreo,
        starttime,
        sourceId: old.sourceId,
        definitionDigest: old.definitionDigest,
        inputs: own,
        deadline: starttime + timeLimitSeconds * 1000,
        storeResults: old.storeResults,
        outputFilters: request.outputFilters.length > 0 ? request.outputFilters : old.outputFilters,
        redriveOf: executionId,
        ...(old.choreoVersion !== undefined ? { choreoVersion: old.choreoVersion } : {}),
        ...(sealed ? { sealedInputs: sealInputs(deps.presetInputs, id, sealed) } : {}),
        ...(options.publicBaseUrl !== undefined ? { publicBaseUrl: options.publicBaseUrl } : {}),
      };
      let start: RedriveStart;
      try {
        start = redriveStart(deps.cipher, source, definition, id);
      } catch (error) {
        throw unsealable(error);
      }
      return recordAndQueue(accepted, {
        wait: false,
        ...(options.idempotencyKey !== undefined
          ? {
              idempotency: {
                key: options.idempotencyKey,
                requestDigest: runRequestDigest(
                  { ...accepted, choreo: `${accepted.choreo}\0redrive\0${executionId}` },
                  sealed && deps.presetInputs?.fingerprint(sealed),
                ),
              },
            }
          : {}),
        // Taken, never instant: it resumes from what the run it redrives completed.
        instant: false,
        redrive: start,
      });
    },
  };

  function openSealed(executionId: string, sealed: string): Record<string, string> {
    try {
      if (!deps.cipher) throw new Error('no SECRETS_KEY');
      return openRunInputs(deps.cipher, executionId, sealed);
    } catch (error) {
      throw unsealable(error);
    }
  }

  /**
   * Records and queues an accepted run; waits for its end when asked to. Once the record exists the
   * run is the caller's: whatever fails after that is answered as accepted, never an error.
   */
  async function recordAndQueue(
    accepted: NewExecution,
    options: { wait: boolean; instant: boolean; derivedId?: boolean } & Pick<AcceptOptions, 'idempotency' | 'redrive' | 'notifyUrl'>,
  ): Promise<LaunchResult> {
    const id = accepted.id;
    // A synchronous run listens before its job exists, so its end cannot be missed and need not
    // be polled for at once.
    const ending = options.wait ? watchEnd(id) : undefined;
    let queued: Promise<unknown>;
    let replayOf: string | undefined;
    try {
      // Recording and queueing go out together on one connection, so Redis applies them in this
      // order and a worker cannot take the job before the record exists; were this process to die
      // between the two, the reconciler would queue the orphaned execution.
      // A job sent along with a record that was not written is taken out again, even when the
      // caller was answered before Redis was.
      const sending = sendAcceptance({ executions: accepting, queues }, accepted, {
        maxRunningPerAccount: config.maxRunningPerAccount,
        maxStoredBytesPerAccount: config.maxStoredBytesPerAccount,
        notifyEnd: options.wait,
        // A synchronous run's acceptance is confirmed replicated with its end (or before its 202),
        // not on its own: one wait for the replicas, not two, before its caller is answered.
        acknowledgeLater: options.wait,
        ...(options.notifyUrl !== undefined ? { notifyUrl: options.notifyUrl } : {}),
        ...(options.idempotency !== undefined ? { idempotency: options.idempotency } : {}),
        ...(options.redrive !== undefined ? { redrive: options.redrive } : {}),
        instant: options.instant,
      });
      const sent = sending.accepted;
      queued = sending.queued;
      queued.catch(() => {});
      const acceptance = await waitForAcceptance(id, sent, options.idempotency !== undefined);
      if (acceptance.outcome !== 'accepted' && acceptance.outcome !== 'exists') {
        if (acceptance.outcome === 'not-redrivable') throw notRedrivable(accepted.redriveOf ?? '', acceptance.status);
        if (acceptance.outcome === 'redrive-running') {
          throw new ApiError(
            'CONFLICT',
            `Execution ${accepted.redriveOf} is being redriven already, by execution ${acceptance.executionId}, which has not ended.`,
          );
        }
        if (acceptance.outcome !== 'replay') throw refusal(acceptance, config);
        if (!acceptance.sameRequest) {
          throw new ApiError(
            'CONFLICT',
            'This Idempotency-Key was given with another run (a different Choreo, inputs or options). Use a new key for a new run.',
          );
        }
        replayOf = acceptance.executionId;
      }
      if (acceptance.outcome === 'exists') {
        // A random id never collides; a tick's id exists when that tick already started its run.
        if (!options.derivedId) throw new Error('execution id collision');
        replayOf = id;
      }
    } catch (error) {
      ending?.cancel();
      throw error;
    }
    if (replayOf !== undefined) {
      ending?.cancel();
      return replay(replayOf, options.wait);
    }
    // From here the run is recorded, and will run: whatever fails now, the caller is told its id
    // (202), never an error that it would retry into a second run. A job that did not reach the
    // queue is queued by the reconciler, which looks for RUNNING executions without one.
    const queuedOk = await queued.then(
      () => true,
      (error: unknown) => {
        deps.logger?.warn({ executionId: id, err: error }, 'recorded a run whose job did not reach the queue; the reconciler will queue it');
        return false;
      },
    );
    // Asynchronous: answered as accepted, whatever a fast worker has done since.
    if (!ending) return { record: acceptedRecord(accepted), ended: false };
    if (!queuedOk) {
      ending.cancel();
      await waits.confirmReplicated(id);
      return { record: acceptedRecord(accepted), ended: false };
    }
    const record = (await waitForEnd(ending, id)) ?? acceptedRecord(accepted);
    // An end is confirmed replicated by waitForEnd, and the acceptance with it; a run answered as
    // still going has its acceptance confirmed here.
    if (!isTerminal(record.status)) await waits.confirmReplicated(id);
    return { record, ended: isTerminal(record.status) };
  }
}

function unsealable(error: unknown): ApiError {
  return new ApiError('SERVICE_UNAVAILABLE', 'The inputs or results this run keeps sealed cannot be opened here: this service has no SECRETS_KEY for them.', {
    cause: error,
  });
}
