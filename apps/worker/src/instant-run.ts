import type { AccountState, ChoreoDefinition, StepLibrary } from '@ces/language';
import type { Sandbox } from '@ces/sandbox';
import type { Logger } from '@ces/observability';
import { acceptedRecord, type EndResult, type ExecutionRecord, type ExecutionStore, type NewExecution, type TerminalStatus } from '@ces/store';
import type { ActiveRuns } from './active-runs.ts';
import { conclusionOf, endOfRun, type EndRecorder } from './execution-end.ts';
import type { ProcessingContext, ProcessResult } from './processing-context.ts';
import { executionLog, pastDeadline, PendingStepEvents, runSteps, type StepEndListener } from './run-steps.ts';

export interface InstantRunDeps {
  executions: ExecutionStore;
  steps: StepLibrary;
  sandbox: Sandbox;
  host: string;
  workerId: string;
  active: ActiveRuns;
  recordEnd: EndRecorder;
  logger: Logger;
  onStepEnd?: StepEndListener;
  /** The state a run's account keeps, given to its steps; none when omitted. */
  accountState?: (account: string, publicBaseUrl: string | undefined) => AccountState;
  /** Makes the delayed jobs of these runs due now: a child's parent its end made due (promoteJobs). */
  makeDue?: (executionIds: readonly string[]) => Promise<void>;
}

/**
 * The life of an instant execution, top to bottom: an instant Choreo runs from the execution as
 * accepted, without a take (no lease, no checkpoints): its record is read and written once, by
 * the `end`, which applies only if no worker has taken the execution since it was accepted. A run
 * that ended meanwhile (terminated, say) is simply not recorded, which is harmless because instant
 * steps change nothing outside the run.
 *
 * The end is not waited for: the job is complete as soon as the end is sent, so that the job's
 * completion goes out in the same write and both are answered in one round trip. The end is
 * refused only when a worker has taken the execution (it took over after a crash or a hand-back):
 * the job is complete by then, so the execution is queued again, to be taken and resumed the usual
 * way. Were that to fail too, the reconciler queues it (a RUNNING execution without a job).
 */
export function createInstantRuns(deps: InstantRunDeps) {
  const { executions, logger } = deps;
  const unsettled = new Set<Promise<void>>();

  function settleInBackground(record: ExecutionRecord, ending: Promise<EndResult>, context: ProcessingContext) {
    const settled = ending
      .then(
        async (result) => {
          if (result.outcome === 'ended' && result.wokenParents !== undefined) await deps.makeDue?.(result.wokenParents);
          if (deps.recordEnd(record, result) !== 'superseded') return;
          logger.info({ executionId: record.id }, 'instant run found its execution taken by a worker; queued again');
          await context.requeue();
        },
        async (error: unknown) => {
          logger.warn({ executionId: record.id, err: (error as Error).message }, 'could not end an instant run; queued again');
          await context.requeue();
        },
      )
      .catch((error: unknown) => logger.error({ executionId: record.id, err: (error as Error).message }, 'could not queue an execution again'))
      .finally(() => unsettled.delete(settled));
    unsettled.add(settled);
  }

  async function end(
    record: ExecutionRecord,
    context: ProcessingContext,
    status: TerminalStatus,
    checkpoint: { outputs: Record<string, string>; nextStep?: number },
    history: PendingStepEvents,
    error?: string,
  ): Promise<ProcessResult> {
    const request = await endOfRun(record, deps.sandbox, status, checkpoint, error);
    const untakenBy = { host: deps.host, workerId: deps.workerId };
    // The whole history goes with the end: an instant run writes once.
    const stepEvents = history.take();
    const runEvents = history.takeRunEvents();
    settleInBackground(record, executions.end(record.id, { ...request, account: record.account, untakenBy, stepEvents, runEvents }), context);
    return 'ended';
  }

  async function execute(record: ExecutionRecord, definition: ChoreoDefinition, context: ProcessingContext): Promise<ProcessResult> {
    return deps.active.track(record.id, record.terminationRequested, async (run) => {
      const history = new PendingStepEvents(deps.host);
      const outcome = await runSteps({
        record,
        definition,
        run,
        steps: deps.steps,
        log: executionLog(logger, record),
        ...(deps.onStepEnd ? { onStepEnd: deps.onStepEnd } : {}),
        history,
        ...(deps.accountState ? { account: deps.accountState(record.account, record.publicBaseUrl) } : {}),
        // Over sooner than a hand-back would be: a shutdown does not stop it.
        beforeStep: () => (pastDeadline(record) ? 'time-limit' : undefined),
        // Nothing to checkpoint under, and nothing lost: run again, it would come out the same.
        afterStep: async () => run.stop,
        // An instant Choreo has no blocks.
        afterProgress: async () => run.stop,
      });
      const conclusion = conclusionOf(outcome);
      if (conclusion.kind === 'end') return end(record, context, conclusion.status, outcome.checkpoint, history, conclusion.error);
      // Never asked for: an instant run is given no suspension, and an instant step never waits.
      if (conclusion.kind === 'suspend') throw new Error('an instant run cannot be suspended');
      switch (conclusion.reason) {
        case 'shutdown':
          // Interrupted with the whole worker: it holds nothing to hand back in the store, and its
          // job goes back to the queue.
          await context.handBack();
          return 'handed-back';
        case 'not-running':
        case 'superseded':
        case 'lock-lost':
          // Never asked for here: an instant run stores no checkpoint that could be refused, and
          // does not watch its job's lock.
          throw new Error(`an instant run cannot stop as ${conclusion.reason}`);
      }
    });
  }

  return {
    /** Runs the execution as accepted, its Choreo instant. */
    run: (accepted: NewExecution, definition: ChoreoDefinition, context: ProcessingContext) => execute(acceptedRecord(accepted), definition, context),

    /** Resolves once every end sent so far has been answered, and any requeue it called for is done. */
    async settled(): Promise<void> {
      while (unsettled.size > 0) await Promise.all(unsettled);
    },
  };
}
