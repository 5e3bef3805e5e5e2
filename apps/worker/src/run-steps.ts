import type { AccountState, Checkpoint, CheckpointDelta, ChildRuns, ChoreoDefinition, ProgressChanges, ResumeFromLog, StepLibrary } from '@ces/language';
import { type ProgressEvent, runChoreo, type RunOutcome, type StepEndEvent, type StopReason, type SuspensionPolicy } from '@ces/engine';
import type { Logger } from '@ces/observability';
import type { ExecutionRecord, RunEvent, StepEvent } from '@ces/store';
import type { ActiveRun } from './active-runs.ts';

/** setTimeout's longest delay; a later deadline is still caught by the check between steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export type StepEndListener = (event: { choreo: string; kind: string; durationMs: number; ok: boolean }) => void;

/**
 * The step events of one run not yet written: one per attempt of each step, collected as steps
 * end and taken by whichever write goes next (a checkpoint, progress inside a block, the end), so
 * that the history costs no write of its own; and its run events (starts and ends of steps and
 * iterations, waits begun), in the order they happened, taken the same way, so that a run event
 * is stored with what it tells of, never before it.
 */
export class PendingStepEvents {
  private events: StepEvent[] = [];
  private runEvents: RunEvent[] = [];
  private readonly host: string;

  constructor(host: string) {
    this.host = host;
  }

  add(step: StepEndEvent): void {
    const { host } = this;
    const { address, id, iteration } = step;
    for (const attempt of step.attempts) {
      // The engine tells the first attempt's start as it happens; a retry's only with its end.
      if (attempt.attempt > 1) this.runEvents.push({ type: 'step.started', time: attempt.start, address, step: id, iteration, attempt: attempt.attempt, host });
      const { end: time, outcome, durationMs, error } = attempt;
      this.runEvents.push({ type: 'step.ended', time, address, step: id, iteration, attempt: attempt.attempt, host, outcome, durationMs, error });
    }
    for (const attempt of step.attempts) {
      this.events.push({
        id: step.id,
        address: step.address,
        ...(step.iteration !== undefined ? { iteration: step.iteration } : {}),
        attempt: attempt.attempt,
        start: attempt.start,
        end: attempt.end,
        durationMs: attempt.durationMs,
        host: this.host,
        outcome: attempt.outcome,
        ...(attempt.error !== undefined ? { error: attempt.error } : {}),
      });
    }
  }

  /** A start, an iteration's end or a wait, as the engine tells it. */
  progress(event: ProgressEvent): void {
    const { host } = this;
    switch (event.type) {
      case 'step.started':
        this.runEvents.push({
          type: event.type,
          time: event.time,
          address: event.address,
          step: event.id,
          iteration: event.iteration,
          attempt: event.attempt,
          host,
        });
        return;
      case 'iteration.started':
        this.runEvents.push({ type: event.type, time: event.time, address: event.address, iteration: event.iteration, attempt: 1, host });
        return;
      case 'iteration.ended':
        this.runEvents.push({
          type: event.type,
          time: event.time,
          address: event.address,
          iteration: event.iteration,
          attempt: 1,
          host,
          outcome: event.outcome,
          durationMs: event.durationMs,
          ...(event.error !== undefined ? { error: event.error } : {}),
        });
        return;
      case 'wait.started':
        this.runEvents.push({
          type: event.type,
          time: event.time,
          address: event.address,
          waitFor: event.waitFor,
          ...(event.untilMs !== undefined ? { until: event.untilMs } : {}),
          ...(event.child !== undefined ? { child: event.child } : {}),
        });
        return;
    }
  }

  /** The events collected since the last call, in the order their attempts ended. */
  take(): StepEvent[] {
    const taken = this.events;
    this.events = [];
    return taken;
  }

  /** The run events collected since the last call, in the order they happened. */
  takeRunEvents(): RunEvent[] {
    const taken = this.runEvents;
    this.runEvents = [];
    return taken;
  }
}

/**
 * Runs the steps of an execution with the engine, from its checkpoint, as `run`: the part both
 * run modes share. Before each step the run stops when something asked it to (`run.stop`), then
 * when the mode says so (`beforeStep`); a wait in progress at the deadline stops there, any other
 * step finishes first. The mode stores each checkpoint, or not, in `afterStep`, and the progress
 * inside a block in `afterProgress`, resuming from `resumeFrom`.
 */
export async function runSteps(options: {
  record: ExecutionRecord;
  definition: ChoreoDefinition;
  run: ActiveRun;
  steps: StepLibrary;
  /** For `choreo.run` steps: a taken run's, never an instant one's (no such step is instant). */
  childRuns?: ChildRuns;
  /** The state of the run's account (stored tokens, callback URLs), for its steps. */
  account?: AccountState;
  log: () => Logger;
  onStepEnd?: StepEndListener;
  /** Collects the step events for the execution's history. */
  history: PendingStepEvents;
  beforeStep: () => StopReason | undefined;
  afterStep: (checkpoint: Checkpoint, changes: ProgressChanges) => Promise<StopReason | undefined>;
  afterProgress: (delta: CheckpointDelta) => Promise<StopReason | undefined>;
  /** Where the run resumes, read from its stored progress (resumePoint); absent, it starts at its first step. */
  resumeFrom?: ResumeFromLog<unknown>;
  /**
   * Stores the run events collected so far at once, when a step with an effect starts (its start
   * is then stored before the effect); absent, they wait for the next write.
   */
  writeRunEvents?: () => Promise<void>;
  /** How the run may be suspended (the outcome says until when); absent: it never is. */
  suspension?: SuspensionPolicy;
}): Promise<RunOutcome> {
  const { record, run } = options;
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
  try {
    return await runChoreo({
      definition: options.definition,
      inputs: record.inputs,
      steps: options.steps,
      ...(options.resumeFrom !== undefined ? { resumeFrom: options.resumeFrom } : {}),
      signal: run.controller.signal,
      ...(options.childRuns ? { childRuns: options.childRuns } : {}),
      ...(options.suspension !== undefined ? { suspension: options.suspension } : {}),
      ...(options.account ? { account: options.account } : {}),
      hooks: {
        beforeStep: () => run.stop ?? options.beforeStep(),
        afterStep: options.afterStep,
        afterProgress: options.afterProgress,
      },
      onProgress: (event) => {
        options.history.progress(event);
        // Written at once, ahead of what follows: an effect, or a wait in the worker, which a watcher
        // sees begin rather than only when it ends.
        const atOnce = (event.type === 'step.started' && !event.pure) || (event.type === 'wait.started' && event.inWorker === true);
        if (!atOnce || options.writeRunEvents === undefined) return undefined;
        // A wait in the worker is told from inside its step: Redis failing there (a primary's
        // failover) is no failure of the step. The run's next write meets it as the run's own
        // trouble, and the job is tried again; the wait's start is told with no more than that lost.
        if (event.type === 'wait.started') return options.writeRunEvents().catch(() => {});
        return options.writeRunEvents();
      },
      onStepEnd: (event) => {
        options.history.add(event);
        // A step that suspended its run has not ended: its duration is told when it does.
        if (event.suspended !== true) options.onStepEnd?.({ choreo: record.choreo, kind: event.kind, durationMs: event.durationMs, ok: event.ok });
      },
    });
  } finally {
    clearTimeout(deadlineTimer);
    run.stepsOver();
  }
}

/** Whether the execution is past its deadline, where it stops before its next step. */
export function pastDeadline(record: ExecutionRecord): boolean {
  return Date.now() >= record.deadline;
}

/** A logger for one execution, made the first time it is needed: most runs log nothing of their own. */
export function executionLog(logger: Logger, record: ExecutionRecord): () => Logger {
  let child: Logger | undefined;
  return () => (child ??= logger.child({ executionId: record.id, account: record.account, choreo: record.choreo }));
}
