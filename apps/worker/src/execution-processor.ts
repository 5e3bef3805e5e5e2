import { randomBytes } from 'node:crypto';
import { applyOutputFilters, isInstantChoreo, type AccountState, type ChoreoDefinition, type Sandbox, type StepLibrary } from '@ces/choreos';
import { runChoreo, type RunOutcome, type StopReason } from '@ces/engine';
import { createDirectLineWriter, jsonString, type Logger } from '@ces/observability';
import {
  acceptedRecord,
  type DefinitionStore,
  type ExecutionRecord,
  type ExecutionStore,
  type FinishResult,
  type NewExecution,
  type TerminalStatus,
} from '@ces/store';
import { deferralDelayMs } from './deferral-delay.ts';

/** What the processor asks of the queue: nothing of BullMQ leaks past this interface. */
export interface ProcessingContext {
  executionId: string;
  /** The execution as accepted, when the queue carries it (instant Choreos only). */
  accepted?: NewExecution;
  /** Puts the execution back in the queue for another worker (graceful shutdown). */
  handBack(): Promise<void>;
  /**
   * Queues the execution again, to be taken the usual way, once its job is complete: an instant run
   * whose end was refused because a worker had taken the execution meanwhile.
   */
  requeue(): Promise<void>;
  /**
   * Puts the execution back to wait until `untilMs` (epoch milliseconds), then to be taken the usual
   * way: its account had its maximum of executions executing.
   */
  defer(untilMs: number): Promise<void>;
  /** Makes a deferred execution due at once, to be taken (and ended) now. */
  undefer(): Promise<void>;
}

/** What an end needs of the queue: the two ways of giving an execution back to it. */
type Requeueing = Pick<ProcessingContext, 'handBack' | 'requeue'>;

/**
 * - `ended`: the execution reached a terminal status here (an instant run: its end was sent, and
 *   is settled in the background, see endsSettled);
 * - `skipped`: nothing to do (already ended, or ended by someone else meanwhile);
 * - `handed-back`: stopped at a step boundary for shutdown and given back to the queue;
 * - `deferred`: not taken, its account has its maximum executing; it waits in the queue again;
 * - `superseded`: another worker took the execution over (this worker lost its job lock, as
 *   after a long Redis outage), or may take it (the lock was not renewed in time); this run
 *   stopped without touching the execution or its job.
 */
export type ProcessResult = 'ended' | 'skipped' | 'handed-back' | 'deferred' | 'superseded';

export interface ExecutionProcessor {
  process(context: ProcessingContext): Promise<ProcessResult>;
  /** Termination was requested: a wait in progress stops now, other steps run to their end. */
  cancel(executionId: string): void;
  /** Stops every run at its next step boundary and hands it back. */
  beginShutdown(): void;
  /** Past the grace period: interrupts even waits, so runs are handed back at once. */
  interruptAll(): void;
  activeIds(): string[];
  /**
   * Resolves once every end sent without waiting for its answer (instant runs) has been answered,
   * and any requeue that answer called for is done: a worker stopping waits for this.
   */
  endsSettled(): Promise<void>;
}

interface ActiveRun {
  controller: AbortController;
  stop?: StopReason;
  /**
   * Set when the store refused a checkpoint (the execution is no longer this run's to write), or
   * when the job's lock may have lapsed before a step (`lock-lost`: another worker may take it).
   */
  detached?: 'gone' | 'superseded' | 'lock-lost';
  /** Settles when this run's `process` call is over. */
  done: Promise<void>;
}

/** setTimeout's longest delay; a later deadline is still caught by the check between steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const STATUS_FOR_STOP: Record<Exclude<StopReason, 'shutdown'>, TerminalStatus> = {
  cancelled: 'TERMINATED_MANUALLY',
  'time-limit': 'TERMINATED_LIMIT',
};

export function createExecutionProcessor(deps: {
  executions: ExecutionStore;
  definitions: DefinitionStore;
  steps: StepLibrary;
  /** Where the output filters' queries run; the step library's own. */
  sandbox: Sandbox;
  host: string;
  workerId: string;
  /** Most executions of one account taken at once, across all workers (0: no limit). */
  maxExecutingPerAccount?: number;
  /**
   * Whether this worker still holds the queue's lock on the execution's job. A taken run checks it
   * before each step: without the lock, the job may go to another worker, which would run the same
   * step. Omitted: always held.
   */
  holdsJobLock?: (executionId: string) => boolean;
  /** The state a run's account keeps (stored tokens, callback URLs), given to its steps; none when omitted. */
  accountState?: (account: string) => AccountState;
  logger: Logger;
  onDeferred?: () => void;
  onStepEnd?: (event: { choreo: string; kind: string; durationMs: number; ok: boolean }) => void;
  onExecutionEnd?: (event: { choreo: string; account: string; status: TerminalStatus; durationMs: number }) => void;
}): ExecutionProcessor {
  const { executions, definitions, steps, sandbox, host, workerId, logger } = deps;
  // Written once per run: serialised directly, without pino's generic path (fields hold no secret).
  const writeLine = createDirectLineWriter(logger);
  const active = new Map<string, ActiveRun>();
  const unsettled = new Set<Promise<void>>();
  const parsedDefinitions = new Map<string, ChoreoDefinition>();
  let shuttingDown = false;
  let takes = 0;

  async function definitionFor(digest: string): Promise<ChoreoDefinition | undefined> {
    const cached = parsedDefinitions.get(digest);
    if (cached) return cached;
    const json = await definitions.load(digest);
    if (json === undefined) return undefined;
    const definition = JSON.parse(json) as ChoreoDefinition;
    parsedDefinitions.set(digest, definition);
    return definition;
  }

  /** Counts and logs an end the store applied; tells whether another take had it instead. */
  function recordEnd(record: ExecutionRecord, result: FinishResult): 'ended' | 'superseded' {
    if (result.superseded) return 'superseded';
    if (result.applied && result.status) {
      deps.onExecutionEnd?.({ choreo: record.choreo, account: record.account, status: result.status, durationMs: Date.now() - record.starttime });
      writeLine(
        'info',
        `,"executionId":${jsonString(record.id)},"account":${jsonString(record.account)},"choreo":${jsonString(record.choreo)},"status":"${result.status}"`,
        'execution ended',
      );
    }
    return 'ended';
  }

  /**
   * An instant run's end is not waited for: the process call returns as soon as it is sent, so that
   * the job's completion goes out in the same write and both are answered in one round trip. The
   * end is refused only when a worker has taken the execution (it took over after a crash or a
   * hand-back): the job is complete by then, so the execution is queued again, to be taken and
   * resumed the usual way. Were that to fail too, the reconciler queues it (a RUNNING execution
   * without a job).
   */
  function settleUnawaited(record: ExecutionRecord, finishing: Promise<FinishResult>, queueing: Requeueing) {
    const settled = finishing
      .then(
        async (result) => {
          if (recordEnd(record, result) !== 'superseded') return;
          logger.info({ executionId: record.id }, 'instant run found its execution taken by a worker; queued again');
          await queueing.requeue();
        },
        async (error: unknown) => {
          logger.warn({ executionId: record.id, err: (error as Error).message }, 'could not end an instant run; queued again');
          await queueing.requeue();
        },
      )
      .catch((error: unknown) => logger.error({ executionId: record.id, err: (error as Error).message }, 'could not queue an execution again'))
      .finally(() => unsettled.delete(settled));
    unsettled.add(settled);
  }

  /** `lease` undefined: an instant run, ended only if no worker has taken the execution. */
  async function end(
    record: ExecutionRecord,
    lease: string | undefined,
    queueing: Requeueing,
    status: TerminalStatus,
    checkpoint: { outputs: Record<string, string>; nextStep?: number },
    error?: string,
  ): Promise<ProcessResult> {
    const outputs = checkpoint.outputs;
    let finalOutputs = outputs;
    let finalStatus = status;
    let finalError = error;
    if (record.outputFilters.length > 0) {
      try {
        finalOutputs = await applyOutputFilters(outputs, record.outputFilters, sandbox);
      } catch (filterError) {
        if (status === 'SUCCESS') {
          finalStatus = 'ERROR';
          finalError = `output filter failed: ${(filterError as Error).message}`;
        }
      }
    }
    const finishing = executions.finish(record.id, {
      status: finalStatus,
      outputs: finalOutputs,
      account: record.account,
      ...(lease !== undefined ? { lease } : { untakenBy: { host, workerId } }),
      ...(checkpoint.nextStep !== undefined ? { nextStep: checkpoint.nextStep } : {}),
      ...(finalError !== undefined ? { error: finalError } : {}),
    });
    if (lease === undefined) {
      settleUnawaited(record, finishing, queueing);
      return 'ended';
    }
    return recordEnd(record, await finishing);
  }

  async function execute(
    record: ExecutionRecord,
    definition: ChoreoDefinition,
    run: ActiveRun,
    lease: string | undefined,
    queueing: Requeueing,
  ): Promise<ProcessResult> {
    const executionId = record.id;
    // Most runs log nothing of their own: the child logger is made the first time one does.
    let child: Logger | undefined;
    const log = () => (child ??= logger.child({ executionId, account: record.account, choreo: record.choreo }));
    // A wait in progress at the time limit stops there; any other step finishes first.
    const untilDeadline = record.deadline - Date.now();
    const deadlineTimer =
      untilDeadline <= MAX_TIMER_MS
        ? setTimeout(
            () => {
              run.stop ??= 'time-limit';
              run.controller.abort('time-limit');
            },
            Math.max(0, untilDeadline),
          )
        : undefined;
    // Resuming a run someone else started is worth an operator's eye; a fresh take is routine.
    const takenLevel = record.nextStep > 0 ? 'info' : 'debug';
    if (logger.isLevelEnabled(takenLevel)) log()[takenLevel]({ resumeAt: record.nextStep }, 'execution taken');
    let outcome: RunOutcome;
    try {
      outcome = await runChoreo({
        definition,
        inputs: record.inputs,
        steps,
        resumeFrom: { nextStep: record.nextStep, results: record.results, outputs: record.output },
        signal: run.controller.signal,
        ...(deps.accountState ? { account: deps.accountState(record.account) } : {}),
        hooks: {
          beforeStep: () => {
            if (run.stop) return run.stop;
            // An instant run is over sooner than a hand-back would be.
            if (shuttingDown && lease !== undefined) return 'shutdown';
            if (Date.now() >= record.deadline) return 'time-limit';
            if (lease !== undefined && deps.holdsJobLock && !deps.holdsJobLock(executionId)) {
              run.detached = 'lock-lost';
              return 'shutdown';
            }
            return undefined;
          },
          afterStep: async (checkpoint) => {
            // After the last step the run ends next, and finish records the step reached and the
            // outputs in the same atomic operation: a checkpoint here would only add a round trip.
            // An instant run has no lease to checkpoint under, and would simply run again.
            if (checkpoint.nextStep >= definition.steps.length || lease === undefined) return run.stop;
            const result = await executions.checkpoint(executionId, checkpoint, lease);
            if (result === 'cancel') run.stop = 'cancelled';
            if (result === 'gone' || result === 'superseded') {
              run.detached = result;
              // Any reason stops the engine; `detached` decides what happens next.
              return 'shutdown';
            }
            return run.stop;
          },
        },
        onStepEnd: (event) => deps.onStepEnd?.({ choreo: record.choreo, kind: event.kind, durationMs: event.durationMs, ok: event.ok }),
      });
    } finally {
      clearTimeout(deadlineTimer);
      // The same execution may have been taken again by this worker meanwhile; keep that run.
      if (active.get(executionId) === run) active.delete(executionId);
    }

    if (run.detached === 'gone') {
      log().info('execution ended elsewhere; stopped');
      return 'skipped';
    }
    if (run.detached === 'superseded') {
      log().warn({ nextStep: outcome.checkpoint.nextStep }, 'execution taken over by another worker; stopped');
      return 'superseded';
    }
    if (run.detached === 'lock-lost') {
      // Left as it is: the job goes back to the queue once its lock has lapsed, and whoever takes
      // it resumes from the checkpoint, the step not started here.
      log().warn({ nextStep: outcome.checkpoint.nextStep }, 'job lock not renewed in time; stopped before the next step');
      return 'superseded';
    }
    switch (outcome.kind) {
      case 'completed':
        return end(record, lease, queueing, 'SUCCESS', outcome.checkpoint);
      case 'failed':
        return end(record, lease, queueing, 'ERROR', outcome.checkpoint, outcome.error);
      case 'stopped':
        if (outcome.reason === 'shutdown') {
          // The checkpoint is already stored after every completed step; the next worker resumes
          // there. An instant run holds nothing to release.
          if (lease !== undefined && !(await executions.release(executionId, lease))) {
            const current = await executions.get(executionId);
            log().info({ status: current?.status }, 'execution ended or was taken over while stopping; not handed back');
            return current?.status === 'RUNNING' ? 'superseded' : 'skipped';
          }
          await queueing.handBack();
          log().info({ nextStep: outcome.checkpoint.nextStep }, 'execution handed back');
          return 'handed-back';
        }
        return end(record, lease, queueing, STATUS_FOR_STOP[outcome.reason], outcome.checkpoint);
    }
  }

  /** Runs a take (or an instant run) as one of the active runs, so that it can be cancelled. */
  async function track(record: ExecutionRecord, definition: ChoreoDefinition, lease: string | undefined, queueing: Requeueing) {
    const executionId = record.id;
    let settle = () => {};
    const run: ActiveRun = { controller: new AbortController(), done: new Promise<void>((resolve) => (settle = resolve)) };
    if (record.cancelRequested) run.stop = 'cancelled';
    active.set(executionId, run);
    try {
      const result = await execute(record, definition, run, lease, queueing);
      const newer = active.get(executionId);
      if (result === 'superseded' && newer !== undefined && newer !== run) {
        // This worker holds the newer take itself. BullMQ tracks job locks by job id, so ending
        // this call first would stop the renewal of the newer take's lock.
        await newer.done;
      }
      return result;
    } finally {
      settle();
    }
  }

  /**
   * An instant Choreo runs from the execution as accepted, without a take: its record is read and
   * written once, by the finish, which applies only if no worker has taken the execution since it
   * was accepted. A run that ended meanwhile (terminated, say) is simply not recorded, which is
   * harmless because instant steps change nothing outside the run. Undefined: run it the usual way.
   */
  async function runUntaken(accepted: NewExecution, queueing: Requeueing): Promise<ProcessResult | undefined> {
    const definition = await definitionFor(accepted.definitionDigest);
    if (!definition || !isInstantChoreo(definition, steps)) return undefined;
    return track(acceptedRecord(accepted), definition, undefined, queueing);
  }

  return {
    async process(context) {
      const { executionId, accepted } = context;
      if (accepted !== undefined && !shuttingDown) {
        const result = await runUntaken(accepted, context);
        if (result !== undefined) return result;
      }
      // Unique to this take: a worker that takes the same execution again (after losing its job
      // lock) must not be mistaken for its earlier self.
      takes += 1;
      const lease = `${workerId}:${takes}:${randomBytes(4).toString('hex')}`;
      const claim = await executions.claim(executionId, { host, workerId, lease, maxExecutingPerAccount: deps.maxExecutingPerAccount ?? 0 });
      if (claim.outcome === 'deferred') {
        const until = Date.now() + deferralDelayMs(claim.deferrals, claim.waiting);
        // Never past its deadline, where it ends at its next take and frees its place in the quota.
        await context.defer(claim.deadline > 0 ? Math.min(until, claim.deadline) : until);
        // A DELETE that came while this worker held the job set the flag but could not take the job
        // out of the queue (BullMQ refuses while it is held): the run, terminated for its caller,
        // must not wait minutes for its next take, where it ends.
        if (await executions.cancelRequested(executionId)) await context.undefer().catch(() => {});
        deps.onDeferred?.();
        return 'deferred';
      }
      if (claim.outcome !== 'taken') return 'skipped';
      const record = claim.record;
      const definition = await definitionFor(record.definitionDigest);
      if (!definition) {
        return end(record, lease, context, 'ERROR', { outputs: record.output }, 'the definition this run was accepted with is missing');
      }
      return track(record, definition, lease, context);
    },

    cancel(executionId) {
      const run = active.get(executionId);
      if (!run) return;
      run.stop = 'cancelled';
      run.controller.abort('cancelled');
    },

    beginShutdown() {
      shuttingDown = true;
    },

    interruptAll() {
      shuttingDown = true;
      for (const run of active.values()) run.controller.abort('shutdown');
    },

    activeIds() {
      return [...active.keys()];
    },

    async endsSettled() {
      while (unsettled.size > 0) await Promise.all(unsettled);
    },
  };
}
