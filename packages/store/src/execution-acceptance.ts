import { hash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AccountReservations } from './account-reservations.ts';
import { encodeListRow, encodeNewExecution, RECORD_FIELDS, type NewExecution } from './execution-record.ts';
import type { KeySpace } from './keys.ts';
import { encodeRunEvent } from './run-events.ts';
import { ScriptReply } from './script-replies.ts';
import type { ScriptRunner } from './scripts.ts';
import { storageWindow } from './storage-window.ts';
import type { StoreCrashSeamHook } from './store-crash-seam.ts';

/**
 * - `accepted`: recorded RUNNING, waiting for a take; `exists`: an execution with this id exists already;
 * - `quota-exceeded`: the account has its maximum of RUNNING executions;
 * - `budget-exceeded`: storing it would take the account past its budget of stored bytes, for
 *   `retryAfterSeconds` more at least;
 * - `larger-than-budget`: the record alone is larger than the budget, and never will fit;
 * - `replay`: nothing accepted, the Idempotency-Key started `executionId` already, for the same run
 *   (`sameRequest`) or another;
 * - `not-redrivable`: nothing accepted, the execution to redrive has not ended ERROR or
 *   TERMINATED_LIMIT (`status`: '' when it is gone);
 * - `redrive-running`: nothing accepted, redrive `executionId` of it is still RUNNING.
 */
export type AcceptResult =
  | { outcome: 'accepted' | 'exists' | 'quota-exceeded' | 'larger-than-budget' }
  | { outcome: 'budget-exceeded'; retryAfterSeconds: number }
  | { outcome: 'replay'; executionId: string; sameRequest: boolean }
  | { outcome: 'not-redrivable'; status: string }
  | { outcome: 'redrive-running'; executionId: string };

/**
 * Where a redrive starts (`NewExecution.redriveOf` names the run it redrives): the entries of that
 * run's progress it keeps (its completed top-level steps' results, and what redriveProgress in
 * @ces/language keeps of the block it failed in), values as stored, their sealed ones bound to the
 * new execution already, and the top-level step they reach.
 */
export interface RedriveStart {
  nextStep: number;
  entries: readonly (readonly [string, string])[];
}

/** A client's key for retrying a run safely: one run per key and account, as long as its record is kept. */
export interface IdempotencyOptions {
  /** The Idempotency-Key as the client sent it. */
  key: string;
  /** A digest of what the run asks for: a key given again with another run is refused. */
  requestDigest: string;
}

export interface AcceptOptions {
  /** 0: no limit. */
  maxRunningPerAccount: number;
  /**
   * Bytes the account's executions may store over the retention period (records when accepted,
   * outputs when they end); 0: no limit. Counted either way.
   */
  maxStoredBytesPerAccount?: number;
  /** Publish the end of this execution, for a caller that waits for it. */
  notifyEnd?: boolean;
  /** Publish the end of this child execution, for its parent, on the channel of children's ends. */
  notifyParent?: boolean;
  /** The run's own call-back (`?notify=`), to which its end is delivered signed (webhook-outbox.lua). */
  notifyUrl?: string;
  idempotency?: IdempotencyOptions;
  /** A child's: the address of the step that starts it, for its parent's `child.started` run event. */
  childOf?: { address: string };
  /** For a redrive: where it starts. */
  redrive?: RedriveStart;
  /**
   * Called once the record's write is sent, before its answer comes: what must reach Redis after
   * the record (its job) is sent then, on the same connection, so that Redis applies the two in
   * that order without a round trip between them (send-acceptance.ts).
   */
  afterRecordSent?: () => void;
  /**
   * With REDIS_REPLICA_ACKS: the record is not waited for here, because the caller confirms it
   * replicated before it answers anyone (a synchronous run: with its end, confirmReplicated).
   */
  acknowledgeLater?: boolean;
}

/** What accept-execution.lua's reply (and each of accept-executions.lua's) says. */
function acceptResult(reply: unknown): AcceptResult {
  if (reply === ScriptReply.Done) return { outcome: 'accepted' };
  if (reply === ScriptReply.IdExists) return { outcome: 'exists' };
  if (reply === ScriptReply.QuotaExceeded) return { outcome: 'quota-exceeded' };
  if (reply === ScriptReply.LargerThanBudget) return { outcome: 'larger-than-budget' };
  if (Array.isArray(reply) && reply[0] === ScriptReply.BudgetExceeded) return { outcome: 'budget-exceeded', retryAfterSeconds: Number(reply[1]) };
  if (Array.isArray(reply) && reply[0] === ScriptReply.Replay) return { outcome: 'replay', executionId: String(reply[1]), sameRequest: reply[2] === 1 };
  if (Array.isArray(reply) && reply[0] === ScriptReply.NotRedrivable) return { outcome: 'not-redrivable', status: String(reply[1]) };
  if (Array.isArray(reply) && reply[0] === ScriptReply.RedriveRunning) return { outcome: 'redrive-running', executionId: String(reply[1]) };
  throw new Error(`accepting an execution answered ${JSON.stringify(reply)}`);
}

/** What the store's acceptance needs of the store it is part of (execution-store.ts). */
export interface ExecutionAcceptanceDeps {
  redis: Redis;
  keys: KeySpace;
  run: ScriptRunner;
  retentionSeconds: number;
  /** With more than one shard: the account's limits in the control slot (account-reservations.ts). */
  reservations?: AccountReservations;
  /** Whether runs are reserved now: the store has reservations and the layout more than one shard. */
  reserving: () => boolean;
  /** The named arguments of accept-record.lua that do not depend on the execution (history-index.lua, webhook-outbox.lua, run-events.lua). */
  scriptArguments: { history: unknown; webhooks: unknown; run_events_bound: number; run_events_channel: string; publish: string };
  atSeam?: StoreCrashSeamHook;
}

/**
 * The store's accept and acceptMany (accept-execution.lua, accept-executions.lua): a run recorded
 * RUNNING within its account's limits, in its shard's scripts, or with shards after its
 * reservation in the control slot.
 */
export function createExecutionAcceptance(deps: ExecutionAcceptanceDeps): {
  accept(execution: NewExecution, options: AcceptOptions): Promise<AcceptResult>;
  acceptMany(executions: readonly NewExecution[], limits: Pick<AcceptOptions, 'maxRunningPerAccount' | 'maxStoredBytesPerAccount'>): Promise<AcceptResult[]>;
} {
  const { redis, keys, run, retentionSeconds, reservations, reserving } = deps;
  // The named arguments of accept-record.lua that are the same for every execution, whichever
  // script accepts it.
  const acceptanceKeys = { ...deps.scriptArguments, execution_prefix: keys.execution('') };
  // What every execution of a batch accepted at once shares besides (accept-executions.lua), with
  // `bytes_key`, the stored bytes' key, chosen at each call.
  const batchAcceptance = {
    ...acceptanceKeys,
    account_running_key: keys.accountRunning('\u0001'),
    rows_key: keys.accountRunningRows('\u0001'),
  };

  // A shard's refusal gives the reservation back. One that found the run there already (`exists`:
  // the same id, its accept sent again, or a tick started twice at once) leaves the place to that
  // run, whose end lets it go (or the pruning, once it has ended), and gives back only bytes this
  // call charged: none when an earlier call for the same run reserved them (`before`).
  const giveBack = async (execution: NewExecution, accepted: AcceptResult, reserved: { before?: true }, size: number) => {
    if (accepted.outcome === 'accepted' || !reservations) return;
    if (accepted.outcome !== 'exists') return reservations.release(execution.id, execution.account, { refund: size, now: execution.starttime });
    if (!reserved.before) return reservations.release([], execution.account, { refund: size, now: execution.starttime });
  };

  async function acceptOne(
    execution: NewExecution,
    { maxRunningPerAccount, maxStoredBytesPerAccount = 0, idempotency, childOf, redrive, acknowledgeLater }: AcceptOptions,
    fields: readonly string[],
    entries: readonly string[],
    idempotencyKey: string,
  ): Promise<AcceptResult> {
    const window = storageWindow(execution.starttime, retentionSeconds);
    const reply = await run(
      'acceptExecution',
      [
        keys.execution(execution.id),
        keys.running(),
        keys.accountRunning(execution.account),
        keys.accountStoredBytes(execution.account, window.index),
        keys.accountStoredBytes(execution.account, window.index - 1),
        idempotencyKey,
        keys.accountRunningRows(execution.account),
        keys.executionCounts(),
        keys.execution(execution.parent ?? execution.id),
        keys.executionChildren(execution.parent ?? execution.id),
        keys.execution(execution.redriveOf ?? execution.id),
        keys.executionProgress(execution.id),
        keys.executionEvents(execution.parent ?? execution.id),
      ],
      [
        JSON.stringify({
          id: execution.id,
          starttime: String(execution.starttime),
          max_running: maxRunningPerAccount,
          budget: maxStoredBytesPerAccount,
          window_ms: window.lengthMs,
          window_start: window.startMs,
          bytes_elsewhere: reserving(),
          request_digest: idempotency?.requestDigest ?? '',
          account: execution.account,
          choreo: execution.choreo,
          ...acceptanceKeys,
          list_row: encodeListRow({ starttime: execution.starttime, host: '', workerId: '', terminationRequested: false, choreo: execution.choreo }),
          child_event:
            execution.parent !== undefined && childOf !== undefined
              ? encodeRunEvent({ type: 'child.started', time: execution.starttime, address: childOf.address, child: execution.id })
              : '',
          redrive_of: execution.redriveOf ?? '',
          progress_entries: redrive?.entries.length ?? 0,
        }),
        ...fields,
        ...entries,
      ],
      { acknowledge: acknowledgeLater !== true },
    );
    return acceptResult(reply);
  }

  /** `encoded`: each execution's fields, as encodeNewExecution gives them (made here when absent). */
  async function acceptBatch(
    executions: readonly NewExecution[],
    { maxRunningPerAccount, maxStoredBytesPerAccount = 0 }: Pick<AcceptOptions, 'maxRunningPerAccount' | 'maxStoredBytesPerAccount'>,
    encoded: readonly string[][] = executions.map((execution) => encodeNewExecution(execution)),
  ): Promise<AcceptResult[]> {
    if (executions.length === 0) return [];
    const lengthMs = retentionSeconds * 1000;
    const each = executions.flatMap((execution, i) => {
      const window = storageWindow(execution.starttime, retentionSeconds);
      const fields = encoded[i] as string[];
      return [
        execution.id,
        String(execution.starttime),
        execution.account,
        execution.choreo,
        String(window.startMs),
        String(window.index),
        encodeListRow({ starttime: execution.starttime, host: '', workerId: '', terminationRequested: false, choreo: execution.choreo }),
        String(fields.length),
        ...fields,
      ];
    });
    const replies = (await run(
      'acceptExecutions',
      [keys.running(), keys.executionCounts()],
      [
        JSON.stringify({
          ...batchAcceptance,
          bytes_key: keys.accountStoredBytes('\u0001', '\u0002'),
          max_running: maxRunningPerAccount,
          budget: maxStoredBytesPerAccount,
          window_ms: lengthMs,
          bytes_elsewhere: reserving(),
        }),
        executions.length,
        ...each,
      ],
    )) as unknown[];
    return replies.map(acceptResult);
  }

  async function accept(execution: NewExecution, options: AcceptOptions): Promise<AcceptResult> {
    const fields = [
      ...encodeNewExecution(execution, options.redrive),
      ...(options.notifyEnd ? ['notify', '1'] : options.notifyParent ? ['notify', 'parent'] : []),
      ...(options.notifyUrl ? [RECORD_FIELDS.notifyUrl, options.notifyUrl] : []),
    ];
    const entries = options.redrive?.entries.flat() ?? [];
    const idempotencyKey = keys.idempotencyKey(execution.account, options.idempotency ? hash('sha256', options.idempotency.key) : '-');
    const acceptNow = (withLimits: AcceptOptions) => {
      const accepting = acceptOne(execution, withLimits, fields, entries, idempotencyKey);
      options.afterRecordSent?.();
      return accepting;
    };
    if (!reservations || !reserving()) return acceptNow(options);
    // A run its Idempotency-Key started already is answered as before, whatever the account's limits now.
    if (options.idempotency && (await redis.exists(idempotencyKey)) === 1) return acceptNow(options);
    // With shards, the account's limits are the control slot's (account-reservations.ts).
    const size = acceptedBytes(fields, entries, options.idempotency && { key: idempotencyKey, entry: `${execution.id} ${options.idempotency.requestDigest}` });
    const reserved = await reservations.reserve(
      { id: execution.id, account: execution.account, starttime: execution.starttime, size },
      { maxRunning: options.maxRunningPerAccount, budget: options.maxStoredBytesPerAccount ?? 0 },
    );
    if (reserved.outcome !== 'reserved') return reserved;
    await deps.atSeam?.('reserved', execution.id);
    const accepted = await acceptNow({ ...options, maxRunningPerAccount: 0, maxStoredBytesPerAccount: 0 });
    await giveBack(execution, accepted, reserved, size);
    return accepted;
  }

  async function acceptMany(
    executions: readonly NewExecution[],
    limits: Pick<AcceptOptions, 'maxRunningPerAccount' | 'maxStoredBytesPerAccount'>,
  ): Promise<AcceptResult[]> {
    if (!reservations || !reserving()) return acceptBatch(executions, limits);
    const encoded = executions.map((execution) => encodeNewExecution(execution));
    const sizes = encoded.map((fields) => acceptedBytes(fields, [], undefined));
    const reserved = await Promise.all(
      executions.map((execution, i) =>
        reservations.reserve(
          { id: execution.id, account: execution.account, starttime: execution.starttime, size: sizes[i] as number },
          { maxRunning: limits.maxRunningPerAccount, budget: limits.maxStoredBytesPerAccount ?? 0 },
        ),
      ),
    );
    const results: AcceptResult[] = reserved.map((result) => (result.outcome === 'reserved' ? { outcome: 'accepted' } : result));
    const isReserved = (_: unknown, i: number) => reserved[i]?.outcome === 'reserved';
    const firstReserved = executions.find(isReserved);
    if (firstReserved) await deps.atSeam?.('reserved', firstReserved.id);
    const accepted = await acceptBatch(executions.filter(isReserved), { maxRunningPerAccount: 0, maxStoredBytesPerAccount: 0 }, encoded.filter(isReserved));
    let next = 0;
    await Promise.all(
      executions.map(async (execution, i) => {
        const reservation = reserved[i];
        if (reservation?.outcome !== 'reserved') return;
        const result = accepted[next++] as AcceptResult;
        results[i] = result;
        await giveBack(execution, result, reservation, sizes[i] as number);
      }),
    );
    return results;
  }

  return { accept, acceptMany };
}

/**
 * The bytes an acceptance stores, as accept-record.lua counts them against the account's budget:
 * the record's values, a redrive's progress entries, and an Idempotency-Key's entry with the
 * record's field naming it.
 */
function acceptedBytes(fields: readonly string[], entries: readonly string[], idempotency: { key: string; entry: string } | undefined): number {
  let size = 0;
  for (let i = 1; i < fields.length; i += 2) size += Buffer.byteLength(fields[i] as string);
  for (const entry of entries) size += Buffer.byteLength(entry);
  if (idempotency) size += Buffer.byteLength(idempotency.key) * 2 + Buffer.byteLength(idempotency.entry);
  return size;
}
