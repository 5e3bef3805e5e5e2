import { type AccountState, type ChildRuns, type ChoreoDefinition, isInstantChoreo, type StepLibrary } from '@ces/language';
import type { Sandbox } from '@ces/sandbox';
import type { SuspensionPolicy } from '@ces/engine';
import type { Logger } from '@ces/observability';
import type { DefinitionStore, ExecutionEndListener, ExecutionRecord, ExecutionStore, NewExecution, SecretCipher } from '@ces/store';
import { createActiveRuns } from './active-runs.ts';
import { createDefinitionCache } from './definition-cache.ts';
import { createEndRecorder } from './execution-end.ts';
import { createInstantRuns } from './instant-run.ts';
import type { ProcessingContext, ProcessResult } from './processing-context.ts';
import type { StepEndListener } from './run-steps.ts';
import { createTakenRuns } from './taken-run.ts';
import type { CrashSeamHook } from './crash-seam.ts';

/**
 * The two ways a worker executes an execution, chosen once per job:
 * - `instant`: its Choreo is instant (`isInstantChoreo`) and the job carries it as accepted: run
 *   from there without a take, ended only if no worker has taken it (instant-run.ts);
 * - `taken`: taken under a lease, checkpointed after every step, ended or handed back under that
 *   lease (taken-run.ts).
 */
type RunMode = { kind: 'instant'; accepted: NewExecution; definition: ChoreoDefinition } | { kind: 'taken' };

export interface ExecutionProcessor {
  process(context: ProcessingContext): Promise<ProcessResult>;
  /** Termination was requested: a wait in progress stops now, other steps run to their end. */
  terminationRequested(executionId: string): void;
  /** Stops every taken run at its next step boundary and hands it back. */
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
  /** How a taken run may be suspended (durable waits, call backs); absent: every wait is in-process. */
  suspension?: SuspensionPolicy;
  /**
   * Whether this worker still holds the queue's lock on the execution's job. A taken run checks it
   * before each step: without the lock, the job may go to another worker, which would run the same
   * step. Omitted: always held.
   */
  holdsJobLock?: (executionId: string) => boolean;
  /** The state a run's account keeps (stored tokens, callback URLs), given to its steps; none when omitted. */
  accountState?: (account: string, publicBaseUrl: string | undefined) => AccountState;
  logger: Logger;
  onDeferred?: () => void;
  /** Tests only: see TakenRunDeps. */
  atSeam?: CrashSeamHook;
  onStepEnd?: StepEndListener;
  onExecutionEnd?: ExecutionEndListener;
  /** The child runs of one parent run, for its `choreo.run` steps. */
  childRunsFor?: (parent: ExecutionRecord) => ChildRuns;
  /** Makes the delayed jobs of these runs due now: parents suspended for a child its end made due. */
  makeDue?: (executionIds: readonly string[]) => Promise<void>;
  /** Seals the outputs Choreos declare secret; without it, runs of such Choreos fail. */
  cipher?: SecretCipher;
}): ExecutionProcessor {
  const active = createActiveRuns();
  const definitions = createDefinitionCache(deps.definitions);
  const recordEnd = createEndRecorder({ logger: deps.logger, ...(deps.onExecutionEnd ? { onExecutionEnd: deps.onExecutionEnd } : {}) });
  let shuttingDown = false;
  const shared = {
    executions: deps.executions,
    steps: deps.steps,
    sandbox: deps.sandbox,
    host: deps.host,
    workerId: deps.workerId,
    active,
    recordEnd,
    logger: deps.logger,
    ...(deps.onStepEnd ? { onStepEnd: deps.onStepEnd } : {}),
    ...(deps.accountState ? { accountState: deps.accountState } : {}),
    ...(deps.makeDue ? { makeDue: deps.makeDue } : {}),
  };
  const instant = createInstantRuns(shared);
  const processTaken = createTakenRuns({
    ...shared,
    ...(deps.childRunsFor ? { childRunsFor: deps.childRunsFor } : {}),
    definitions,
    maxExecutingPerAccount: deps.maxExecutingPerAccount ?? 0,
    ...(deps.suspension !== undefined ? { suspension: deps.suspension } : {}),
    holdsJobLock: deps.holdsJobLock ?? (() => true),
    isShuttingDown: () => shuttingDown,
    ...(deps.onDeferred ? { onDeferred: deps.onDeferred } : {}),
    ...(deps.atSeam ? { atSeam: deps.atSeam } : {}),
    ...(deps.cipher ? { cipher: deps.cipher } : {}),
  });

  /**
   * Instant when the job carries the execution as accepted and its Choreo is instant; a stopping
   * worker takes even those the usual way, to hand them back. A run with sealed inputs (from a
   * preset) is always taken: its inputs are opened only from its record.
   */
  async function runModeOf({ accepted }: ProcessingContext): Promise<RunMode> {
    if (accepted === undefined || accepted.sealedInputs !== undefined || shuttingDown) return { kind: 'taken' };
    const definition = await definitions.load(accepted.definitionDigest);
    return definition && isInstantChoreo(definition, deps.steps, accepted.inputs) ? { kind: 'instant', accepted, definition } : { kind: 'taken' };
  }

  return {
    async process(context) {
      const mode = await runModeOf(context);
      switch (mode.kind) {
        case 'instant':
          return instant.run(mode.accepted, mode.definition, context);
        case 'taken':
          return processTaken(context);
      }
    },

    terminationRequested(executionId) {
      active.stop(executionId, 'termination-requested');
    },

    beginShutdown() {
      shuttingDown = true;
    },

    interruptAll() {
      shuttingDown = true;
      active.interruptAll('shutdown');
    },

    activeIds: () => active.ids(),

    endsSettled: () => instant.settled(),
  };
}
