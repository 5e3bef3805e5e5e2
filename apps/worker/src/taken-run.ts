import { randomBytes } from 'node:crypto';
import { type AccountState, type ChildRuns, hasSecretOutputs, resumePoint, type StepLibrary } from '@ces/language';
import type { Sandbox } from '@ces/sandbox';
import type { SuspendedCallback, SuspensionPolicy } from '@ces/engine';
import type { Logger } from '@ces/observability';
import { openSealedOutputs, type ExecutionRecord, type ExecutionStore, type SecretCipher, type TerminalStatus } from '@ces/store';
import type { ActiveRun, ActiveRuns } from './active-runs.ts';
import type { DefinitionCache } from './definition-cache.ts';
import { deferralDelayMs } from './deferral-delay.ts';
import { conclusionOf, endOfRun, type EndRecorder } from './execution-end.ts';
import type { ProcessingContext, ProcessResult } from './processing-context.ts';
import { executionLog, pastDeadline, PendingStepEvents, runSteps, type StepEndListener } from './run-steps.ts';
import { suspensionOf } from './public-urls.ts';
import { outputSealer } from './secret-outputs.ts';
import { resultSealing, secretResultIdsOnce, type ResultSealing } from './secret-results.ts';
import type { CrashSeamHook } from './crash-seam.ts';

/**
 * A run waiting for its children is taken again at least this often, whatever its due time: a
 * child ended by a process that does not make its parent due (one of an earlier version, during an
 * upgrade) is found then, at the cost of one take and suspension per period.
 */
export const CHILD_WAIT_RECHECK_MS = 5 * 60_000;

export interface TakenRunDeps {
  executions: ExecutionStore;
  definitions: DefinitionCache;
  steps: StepLibrary;
  sandbox: Sandbox;
  host: string;
  workerId: string;
  /** Most executions of one account taken at once, across all workers (0: no limit). */
  maxExecutingPerAccount: number;
  /** How the run may be suspended (durable waits, call backs); absent: every wait is in-process. */
  suspension?: SuspensionPolicy;
  /**
   * Whether this worker still holds the queue's lock on the execution's job, asked before each
   * step: without the lock, the job may go to another worker, which would run the same step.
   */
  holdsJobLock: (executionId: string) => boolean;
  isShuttingDown: () => boolean;
  active: ActiveRuns;
  recordEnd: EndRecorder;
  logger: Logger;
  onDeferred?: () => void;
  /** Tests only: called at each crash seam a run passes (crash-seam.ts). */
  atSeam?: CrashSeamHook;
  /** Makes the delayed jobs of these runs due now: the parents an end of their child made due (promoteJobs). */
  makeDue?: (executionIds: readonly string[]) => Promise<void>;
  onStepEnd?: StepEndListener;
  /** The child runs of one run, for its `choreo.run` steps; without it those steps fail. */
  childRunsFor?: (parent: ExecutionRecord) => ChildRuns;
  /** The state a run's account keeps, given to its steps; none when omitted. */
  accountState?: (account: string, publicBaseUrl: string | undefined) => AccountState;
  /**
   * Seals the outputs a Choreo declares secret, and the step results that may hold a secret, as
   * they are stored, and opens them to resume.
   */
  cipher?: SecretCipher;
}

/**
 * The life of an execution taken under a lease, top to bottom: `take` (or defer it, when its
 * account has its share executing) → its steps, each stored by `checkpoint` under the lease →
 * `end`; or, stopped at a step boundary, `handBack` for shutdown, or leave it alone when another
 * take has it; or, at a long wait, `suspend` it until the wait is due (a durable wait). Returns the function that processes one job this way.
 */
export function createTakenRuns(deps: TakenRunDeps): (context: ProcessingContext) => Promise<ProcessResult> {
  const { executions, definitions, host, workerId, logger } = deps;
  let takes = 0;
  // Without a key, only the steps of a secret kind count: a child's result is then never secret.
  const secretResultIds = secretResultIdsOnce(deps.steps, deps.cipher !== undefined);

  async function defer(context: ProcessingContext, deferral: { deferrals: number; waiting: number; deadline: number }): Promise<ProcessResult> {
    const until = Date.now() + deferralDelayMs(deferral.deferrals, deferral.waiting);
    // Never past its deadline, where it ends at its next take and frees its place in the quota.
    await context.defer(deferral.deadline > 0 ? Math.min(until, deferral.deadline) : until);
    // A DELETE that came while this worker held the job set the flag but could not take the job
    // out of the queue (BullMQ refuses while it is held): the run, terminated for its caller,
    // must not wait minutes for its next take, where it ends.
    if (await executions.terminationRequested(context.executionId)) await context.undefer().catch(() => {});
    deps.onDeferred?.();
    return 'deferred';
  }

  /**
   * The run waits until `untilMs`: its checkpoint and the wait's due time are stored, so it gives
   * its slot back and its job waits among the delayed ones, due at the wait's end or at the run's
   * deadline if that comes first (the take then ends it TERMINATED_LIMIT). A worker that dies
   * before the job is moved leaves it active: the stall check queues it, and the take that follows
   * finds the wait not yet due and suspends it again, so a wait never ends early. A run waiting
   * for children is due as soon as one ends: the store makes it due (at the suspension, when one
   * has ended already; at a child's end after it), and the job is made due by whoever ended the
   * child, or here when that came before the job was delayed.
   */
  async function suspend(
    record: ExecutionRecord,
    lease: string,
    context: ProcessingContext,
    suspension: {
      untilMs: number;
      outputs: Record<string, string>;
      callback: SuspendedCallback | undefined;
      children: readonly string[];
      waitEntries: readonly (readonly [string, unknown])[] | undefined;
      history: PendingStepEvents;
    },
    log: () => Logger,
    sealOutputs: (outputs: Record<string, string>) => Record<string, string>,
    sealing: ResultSealing,
  ): Promise<ProcessResult> {
    const { untilMs, callback, children } = suspension;
    // Kept in the record until the take that resumes it: a secret step's among them sealed.
    const waitEntries = suspension.waitEntries !== undefined ? sealing.sealEntries(suspension.waitEntries) : undefined;
    // The outputs so far are stored with the wait: secret ones sealed.
    const outputs = sealOutputs(suspension.outputs);
    const withinDeadline = (ms: number) => (record.deadline > 0 ? Math.min(ms, record.deadline) : ms);
    const dueMs = withinDeadline(untilMs);
    const suspended = await executions.suspend(record.id, lease, {
      untilMs,
      ...(waitEntries !== undefined ? { waitEntries } : {}),
      runEvents: suspension.history.takeRunEvents(),
      ...(children.length > 0 ? { children } : {}),
      // The call back's entry lives as long as its own wait, not only until the run's earliest
      // (another branch's): one delivered while the run is taken again in between is not refused.
      ...(callback !== undefined
        ? { callback: { token: callback.token, address: callback.address, expiresAtMs: withinDeadline(callback.untilMs), outputs } }
        : {}),
    });
    if (suspended !== 'suspended') {
      log().info({ outcome: suspended }, 'execution ended or was taken over while suspending; not suspended');
      return suspended;
    }
    await deps.atSeam?.('suspended', record.id);
    await context.defer(children.length > 0 ? Math.min(dueMs, Date.now() + CHILD_WAIT_RECHECK_MS) : dueMs);
    // As for a deferral: a DELETE that came while this worker held the job only set the flag; the
    // run, terminated for its caller, must not wait for its timer, so its next take (now) ends it.
    // A call back that came meanwhile, or the end of a child it waits for, could not make the job
    // due either: it is made due here.
    const wakeNow =
      (await executions.terminationRequested(record.id)) ||
      (callback !== undefined && (await executions.callbackDelivered(record.id, callback.address))) ||
      (children.length > 0 && (await executions.waitIsDue(record.id, dueMs)));
    if (wakeNow) await context.undefer().catch(() => {});
    if (logger.isLevelEnabled('debug')) log().debug({ until: new Date(untilMs).toISOString() }, 'execution suspended');
    return 'suspended';
  }

  async function end(
    record: ExecutionRecord,
    lease: string,
    status: TerminalStatus,
    checkpoint: { outputs: Record<string, string>; nextStep?: number },
    error?: string,
    history?: PendingStepEvents,
    sealOutputs: (outputs: Record<string, string>) => Record<string, string> = (outputs) => outputs,
  ): Promise<ProcessResult> {
    const ending = await endOfRun(record, deps.sandbox, status, checkpoint, error);
    // Sealed after the output filters, which read the secret outputs and may be secret themselves.
    const request = ending.outputs !== undefined ? { ...ending, outputs: sealOutputs(ending.outputs) } : ending;
    const stepEvents = history?.take() ?? [];
    const runEvents = history?.takeRunEvents() ?? [];
    const result = await executions.end(record.id, { ...request, account: record.account, lease, stepEvents, runEvents });
    if (result.outcome === 'ended' && result.wokenParents !== undefined) {
      await deps.atSeam?.('parent-due', record.id);
      await deps.makeDue?.(result.wokenParents);
    }
    const ended = deps.recordEnd(record, result);
    await deps.atSeam?.('ended', record.id);
    return ended;
  }

  async function execute(record: ExecutionRecord, lease: string, run: ActiveRun, context: ProcessingContext): Promise<ProcessResult> {
    const log = executionLog(logger, record);
    const definition = await definitions.load(record.definitionDigest);
    if (!definition) return end(record, lease, 'ERROR', { outputs: record.output }, 'the definition this run was accepted with is missing');
    if (deps.cipher === undefined && hasSecretOutputs(definition)) {
      return end(record, lease, 'ERROR', { outputs: {} }, 'this Choreo has secret outputs, and this worker has no SECRETS_KEY to seal them with');
    }
    const secretResults = secretResultIds(definition);
    if (deps.cipher === undefined && secretResults.size > 0) {
      return end(
        record,
        lease,
        'ERROR',
        { outputs: {} },
        'this Choreo has steps whose results are secret, and this worker has no SECRETS_KEY to seal them with',
      );
    }
    const sealOutputs = outputSealer(deps.cipher, record, definition);
    const sealing = resultSealing(deps.cipher, record.id, secretResults);
    // The outputs so far, opened; sealed again each time they are stored.
    const resumed = { ...record, output: openSealedOutputs(deps.cipher, record.id, record.output) };

    // What earlier takes completed (each top-level step's result, a block's steps and iterations,
    // a wait's due time), from the one progress log: where the run resumes, and its results so far,
    // opened. The cursor says whether there is any, so that a fresh take costs no read. Records of
    // earlier versions are read as they are, not converted, both ways at every take until they end:
    // a checkpoint of theirs kept every result in the field `results`, a suspension a top-level
    // wait's entries in the field `wait` (dropped by the checkpoint after it).
    const stored = record.progressCursor !== undefined ? await executions.progress(record.id) : undefined;
    const entries = [...Object.entries(record.waitEntries ?? {}), ...(stored ?? [])];
    const earlierResults = Object.keys(record.results).length > 0 ? sealing.openResults(record.results) : undefined;
    const resumeFrom = entries.length > 0 || earlierResults !== undefined ? resumePoint(definition, sealing.openEntries(entries), earlierResults) : undefined;
    // Resuming a run someone else started is worth an operator's eye; a fresh take is routine.
    const resumeAt = resumeFrom?.nextStep ?? 0;
    const takenLevel = resumeAt > 0 ? 'info' : 'debug';
    if (logger.isLevelEnabled(takenLevel)) log()[takenLevel]({ resumeAt }, 'execution taken');
    const history = new PendingStepEvents(host);
    const outcome = await runSteps({
      record: resumed,
      definition,
      ...(resumeFrom !== undefined ? { resumeFrom } : {}),
      run,
      steps: deps.steps,
      ...(deps.childRunsFor ? { childRuns: deps.childRunsFor(record) } : {}),
      log,
      ...(deps.suspension !== undefined ? { suspension: suspensionOf(deps.suspension, record) } : {}),
      ...(deps.onStepEnd ? { onStepEnd: deps.onStepEnd } : {}),
      history,
      ...(deps.accountState ? { account: deps.accountState(record.account, record.publicBaseUrl) } : {}),
      writeRunEvents: async () => {
        // What it finds (the run ended or taken over) the next write finds too, and stops the run.
        const result = await executions.recordRunEvents(record.id, lease, history.takeRunEvents());
        if (result === 'termination-requested') run.stop = 'termination-requested';
      },
      beforeStep: () => {
        if (deps.isShuttingDown()) return 'shutdown';
        if (pastDeadline(record)) return 'time-limit';
        if (!deps.holdsJobLock(record.id)) return 'lock-lost';
        return undefined;
      },
      afterStep: async (checkpoint, changes) => {
        // After the last step the run ends next, and the end records the step reached and the
        // outputs in the same atomic operation: a checkpoint here would only add a round trip.
        if (checkpoint.nextStep >= definition.steps.length) return run.stop;
        const result = await executions.checkpoint(
          record.id,
          {
            nextStep: checkpoint.nextStep,
            entries: sealing.sealEntries(changes.entries),
            superseded: changes.superseded,
            outputs: sealOutputs(checkpoint.outputs),
          },
          lease,
          history.take(),
          history.takeRunEvents(),
        );
        if (result === 'termination-requested') run.stop = 'termination-requested';
        if (result === 'not-running' || result === 'superseded') return result;
        await deps.atSeam?.('checkpointed', record.id);
        return run.stop;
      },
      afterProgress: async (delta) => {
        const result = await executions.recordProgress(
          record.id,
          { ...delta, entries: sealing.sealEntries(delta.entries) },
          lease,
          history.take(),
          history.takeRunEvents(),
        );
        if (result === 'termination-requested') run.stop = 'termination-requested';
        if (result === 'not-running' || result === 'superseded') return result;
        return run.stop;
      },
    });

    const conclusion = conclusionOf(outcome);
    if (conclusion.kind === 'end') return end(record, lease, conclusion.status, outcome.checkpoint, conclusion.error, history, sealOutputs);
    if (conclusion.kind === 'suspend') {
      const waitEntries = outcome.kind === 'suspended' ? outcome.waitEntries : undefined;
      return suspend(
        record,
        lease,
        context,
        {
          untilMs: conclusion.untilMs,
          outputs: outcome.checkpoint.outputs,
          callback: conclusion.callback,
          children: conclusion.children,
          waitEntries,
          history,
        },
        log,
        sealOutputs,
        sealing,
      );
    }
    switch (conclusion.reason) {
      case 'not-running':
        log().info('execution ended elsewhere; stopped');
        return 'not-running';
      case 'superseded':
        log().warn({ nextStep: outcome.checkpoint.nextStep }, 'execution taken over by another worker; stopped');
        return 'superseded';
      case 'lock-lost':
        // Left as it is: the job goes back to the queue once its lock has lapsed, and whoever
        // takes it resumes from the checkpoint, the step not started here.
        log().warn({ nextStep: outcome.checkpoint.nextStep }, 'job lock not renewed in time; stopped before the next step');
        return 'superseded';
      case 'shutdown': {
        // The checkpoint is already stored after every completed step; the next worker resumes there.
        const handedBack = await executions.handBack(record.id, lease);
        if (handedBack !== 'handed-back') {
          log().info({ outcome: handedBack }, 'execution ended or was taken over while stopping; not handed back');
          return handedBack;
        }
        await deps.atSeam?.('handed-back', record.id);
        await context.handBack();
        log().info({ nextStep: outcome.checkpoint.nextStep }, 'execution handed back');
        return 'handed-back';
      }
    }
  }

  return async function processTaken(context) {
    const { executionId } = context;
    // Unique to this take: a worker that takes the same execution again (after losing its job
    // lock) must not be mistaken for its earlier self.
    takes += 1;
    const lease = `${workerId}:${takes}:${randomBytes(4).toString('hex')}`;
    const take = await executions.take(executionId, { host, workerId, lease, maxExecutingPerAccount: deps.maxExecutingPerAccount });
    if (take.outcome === 'deferred') return defer(context, take);
    if (take.outcome !== 'taken') return 'not-running';
    const record = take.record;
    await deps.atSeam?.('taken', executionId);
    return deps.active.track(executionId, record.terminationRequested, async (run) => {
      const result = await execute(record, lease, run, context);
      const newer = deps.active.current(executionId);
      if (result === 'superseded' && newer !== undefined && newer !== run) {
        // This worker holds the newer take itself. BullMQ tracks job locks by job id, so ending
        // this call first would stop the renewal of the newer take's lock.
        await newer.done;
      }
      return result;
    });
  };
}
