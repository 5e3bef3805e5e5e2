import {
  type AccountState,
  type Checkpoint,
  type CheckpointDelta,
  type ProgressChanges,
  type ChildRuns,
  type ChoreoDefinition,
  compileDefinition,
  type CompiledNode,
  evaluateOutputs,
  exceedsJsonLength,
  ExpressionError,
  jsonLength,
  type ProgressEntry,
  type StepLibrary,
} from '@ces/language';
import { BlockRun } from './block-run.ts';
import type { SuspensionPolicy } from './block-run.ts';
import type { SuspendedCallback } from './constructs/construct.ts';
import type { ProgressListener } from './progress-events.ts';
import { pureStepIds } from './pure-steps.ts';
import { stopReasonOf } from './stop-reason.ts';
import type { StepEndEvent } from './step-end-event.ts';
import type { StopReason } from './stop-reason.ts';
import { DEFAULT_MAX_UNWRITTEN_MS, WritePacing } from './write-pacing.ts';

export type { StopReason } from './stop-reason.ts';
export { stopReasonOf } from './stop-reason.ts';

// Declared in the language, where the store finds them too without depending on the engine.
export type { Checkpoint, CheckpointDelta } from '@ces/language';

export interface EngineHooks {
  /**
   * Before each step (including the first), inside blocks too (with the top-level index);
   * returning a reason stops the run without running that step.
   */
  beforeStep(index: number): StopReason | undefined | Promise<StopReason | undefined>;
  /**
   * With the checkpoint to persist atomically, after a completed top-level step or block: at once
   * after one with an effect, else (pure work, see pure-steps.ts) with the next boundary that needs
   * it — before a step with an effect, before a block's first progress, past `maxUnwrittenMs`, at the
   * end. `changes` are what is stored of it besides its outputs (ProgressChanges): the results
   * completed at the top level since the last call, to append to the progress, and the addresses
   * of what the blocks and waits among them recorded there, to delete. May return a reason to stop
   * now.
   */
  afterStep(checkpoint: Checkpoint, changes: ProgressChanges): Promise<StopReason | undefined>;
  /**
   * Inside a block, before a step starts, with what completed since the last write (steps,
   * iterations) to append to the stored progress: before a step with an effect, after one, and
   * past `maxUnwrittenMs` of pure work. May return a reason to stop now.
   */
  afterProgress(delta: CheckpointDelta): Promise<StopReason | undefined>;
}

/** Where a run resumes (resumePoint in @ces/language reads it from the stored progress). */
export interface ResumePoint {
  nextStep: number;
  results: Record<string, unknown>;
  /** Entries of the step or block at `nextStep`, by address (from CheckpointDelta). */
  progress?: ReadonlyMap<string, unknown>;
}

export type RunOutcome =
  | { kind: 'completed'; checkpoint: Checkpoint }
  | { kind: 'failed'; error: string; checkpoint: Checkpoint }
  | { kind: 'stopped'; reason: StopReason; checkpoint: Checkpoint }
  /**
   * A wait asked for the run to be suspended until `untilMs`: the checkpoint and the wait's due
   * time are stored (afterStep, afterProgress), and the run resumed from them then ends the wait.
   * A top-level step's wait leaves its entries (its due time, its call back's token) in
   * `waitEntries` instead, for the caller to store with the suspension and give back as
   * `resumeFrom.progress`: a waiting run then holds no progress of its own apart from its record.
   * `children` are the child executions its steps wait for: the end of any makes the run due sooner.
   */
  | {
      kind: 'suspended';
      untilMs: number;
      checkpoint: Checkpoint;
      callback?: SuspendedCallback;
      waitEntries?: readonly ProgressEntry[];
      children?: readonly string[];
    };

export type { StepAttempt } from './run-step.ts';
export type { StepEndEvent } from './step-end-event.ts';
export type { ProgressEvent, ProgressListener } from './progress-events.ts';

export interface RunChoreoOptions {
  definition: ChoreoDefinition;
  /** Already bound (bindInputs). */
  inputs: Record<string, string>;
  steps: StepLibrary;
  /** Continue after the last completed step. */
  resumeFrom?: ResumePoint;
  hooks: EngineHooks;
  /** Aborting interrupts a wait step mid-step; abort with a StopReason as `reason`. */
  signal?: AbortSignal;
  /** The state of the run's account, handed to every step as it is (StepContext `account`). */
  account?: AccountState;
  /** For metrics. */
  onStepEnd?: (event: StepEndEvent) => void;
  /** Told the starts of steps and iterations, the ends of iterations and the waits begun, as they happen. */
  onProgress?: ProgressListener;
  /** Sizes a run may reach; DEFAULT_RUN_LIMITS when absent. */
  limits?: RunLimits;
  /** Starts child executions for `choreo.run` steps; without it those steps fail. */
  childRuns?: ChildRuns;
  /**
   * How the run may be suspended (it comes back `suspended`): waits of at least `minimumMs`, and
   * waits for a call back; absent, every wait waits in-process and call backs fail.
   */
  suspension?: SuspensionPolicy;
  /** Longest pure work goes unwritten (DEFAULT_MAX_UNWRITTEN_MS when absent). */
  maxUnwrittenMs?: number;
  /** The clock `maxUnwrittenMs` is measured on, in ms; performance.now when absent. */
  now?: () => number;
}

/**
 * Every step result and the outputs are kept in Redis, whose memory is shared by every account and
 * never evicted: a step whose result outgrows these fails the run instead.
 */
export interface RunLimits {
  /** Longest step result, in characters of JSON. */
  maxStepResultChars: number;
  /** Longest set of outputs, in characters of JSON. */
  maxOutputsChars: number;
  /**
   * Longest set of all steps' results so far, in characters of JSON: Redis keeps them all while
   * the run goes on, and past a few hundred megabytes they no longer fit in one string at all.
   */
  maxResultsChars: number;
}

export const DEFAULT_RUN_LIMITS: RunLimits = { maxStepResultChars: 16 * 1024 * 1024, maxOutputsChars: 16 * 1024 * 1024, maxResultsChars: 32 * 1024 * 1024 };

/**
 * Runs the steps of a definition in order, from `resumeFrom.nextStep`. Knows nothing of queues or
 * storage: the caller persists each checkpoint in `afterStep` and decides about stopping in the hooks.
 */
export async function runChoreo(options: RunChoreoOptions): Promise<RunOutcome> {
  const { definition, inputs, hooks, signal, onStepEnd } = options;
  const limits = options.limits ?? DEFAULT_RUN_LIMITS;
  const compiled = compileDefinition(definition);
  const pureIds = pureStepIds(definition, options.steps, inputs);
  const pacing = new WritePacing(options.maxUnwrittenMs ?? DEFAULT_MAX_UNWRITTEN_MS, options.now);
  /** A checkpoint after pure work, not yet handed to afterStep, and its changes to the progress since the last one written. */
  let unwritten: Checkpoint | undefined;
  let changes: { entries: ProgressEntry[]; superseded: string[] } = { entries: [], superseded: [] };
  const writeCheckpoint = async (): Promise<StopReason | undefined> => {
    if (unwritten === undefined) return undefined;
    const written = unwritten;
    const writtenChanges = changes;
    unwritten = undefined;
    changes = { entries: [], superseded: [] };
    pacing.wrote();
    return hooks.afterStep(written, writtenChanges);
  };
  let nextStep = options.resumeFrom?.nextStep ?? 0;
  let results: Record<string, unknown> = { ...options.resumeFrom?.results };
  // Kept as a running total: measuring all results again after every step would grow with the
  // square of their number.
  let resultsChars = jsonLength(results, limits.maxResultsChars);
  let checkpoint: Checkpoint = {
    nextStep,
    results,
    outputs: {},
  };
  /**
   * The outputs shown while the run waits for a call back, with its step's result so far (its URL);
   * the stored ones when they cannot be computed yet.
   */
  const outputsWhileWaiting = async (waitingResults: Record<string, unknown>, index: number): Promise<Record<string, string>> => {
    try {
      return await evaluateOutputs(definition, { inputs, results: waitingResults, completedSteps: index });
    } catch (error) {
      if (error instanceof ExpressionError) return checkpoint.outputs;
      throw error;
    }
  };
  try {
    checkpoint.outputs = await evaluateOutputs(definition, { inputs, results, completedSteps: nextStep });
  } catch (error) {
    if (error instanceof ExpressionError) return { kind: 'failed', error: error.message, checkpoint };
    throw error;
  }

  for (let index = nextStep; index < compiled.steps.length; index++) {
    const node = compiled.steps[index] as CompiledNode;
    // A step asks at its own boundary; a block asks before it evaluates anything of its own too.
    if (node.type !== 'step') {
      const stopBefore = await hooks.beforeStep(index);
      if (stopBefore !== undefined) return { kind: 'stopped', reason: stopBefore, checkpoint };
      if (signal?.aborted === true) return { kind: 'stopped', reason: stopReasonOf(signal), checkpoint };
    }
    // One path for every node, a step or a block: the block runner runs a step wherever it stands.
    // Filled in by it: the node's result, and the results of the steps that run in it.
    const nextResults: Record<string, unknown> = { ...results };
    const progress = (index === options.resumeFrom?.nextStep ? options.resumeFrom.progress : undefined) ?? new Map();
    /** The addresses of the progress this node holds, stored before or now: its result stands for them once it completes. */
    const recorded = [...progress.keys()];
    const block = new BlockRun({
      inputs,
      steps: options.steps,
      topIndex: index,
      progress,
      signal,
      suspension: options.suspension,
      beforeStep: hooks.beforeStep,
      // The checkpoint held back first: the stored progress belongs to the step it names, and
      // what pure steps left unwritten goes before an effect.
      record: async (entries) => {
        const stopWriting = await writeCheckpoint();
        if (stopWriting !== undefined || entries.length === 0) return stopWriting;
        pacing.wrote();
        for (const [address] of entries) recorded.push(address);
        return hooks.afterProgress({ nextStep: index, entries });
      },
      isPure: (step) => pureIds.has(step.id),
      pacing,
      onStepEnd: onStepEnd && ((event) => onStepEnd({ index, ...event })),
      onProgress: options.onProgress,
      maxStepResultChars: limits.maxStepResultChars,
      maxProgressChars: limits.maxResultsChars,
      childRuns: options.childRuns,
      account: options.account,
    });
    const flow = await block.run(node, nextResults);
    switch (flow.type) {
      case 'failed':
        return { kind: 'failed', error: `${flow.error.step}: ${flow.error.message}`, checkpoint };
      case 'stopped':
        return { kind: 'stopped', reason: flow.reason, checkpoint };
      case 'suspended': {
        // A top-level step's wait keeps its entries (its due time, its token) in the record, with
        // the suspension: a waiting run then holds no progress of its own.
        const waitEntries = node.type === 'step' ? block.takePending() : undefined;
        const stop = await block.flush();
        if (stop !== undefined) return { kind: 'stopped', reason: stop, checkpoint };
        const waiting = flow.callback === undefined ? checkpoint : { ...checkpoint, outputs: await outputsWhileWaiting(nextResults, index) };
        // Other branches may have suspended too: the run is due at the earliest of their waits.
        const { untilMs, children } = block.suspension();
        return {
          kind: 'suspended',
          untilMs: Math.min(flow.untilMs, untilMs),
          checkpoint: waiting,
          ...(flow.callback !== undefined ? { callback: flow.callback } : {}),
          ...(waitEntries !== undefined ? { waitEntries } : {}),
          ...(children.length > 0 ? { children } : {}),
        };
      }
      case 'cancelled':
        throw new Error('a top-level block cannot be cancelled by a sibling');
      case 'returned': {
        let outputs: Record<string, string>;
        try {
          outputs = { ...(await evaluateOutputs(definition, { inputs, results: nextResults, completedSteps: index + 1 })), ...flow.outputs };
        } catch (error) {
          if (error instanceof ExpressionError) return { kind: 'failed', error: `${node.id}: ${error.message}`, checkpoint };
          throw error;
        }
        if (exceedsJsonLength(outputs, limits.maxOutputsChars)) {
          return { kind: 'failed', error: `${node.id}: the outputs would be longer than ${limits.maxOutputsChars} characters`, checkpoint };
        }
        // Returned: the run is over, as after its last step.
        return { kind: 'completed', checkpoint: { nextStep: compiled.steps.length, results: nextResults, outputs } };
      }
      case 'done':
        break;
    }
    /** Whether what the node did must be written before the next step starts. */
    const effect = block.hasUnwrittenEffect();
    let nextResultsChars: number;
    if (node.type === 'step') {
      // A step's result was measured against its limit as it completed. Kept as a running total:
      // the key, its quotes, the colon and a comma; a step run again (a resumed run) replaces its
      // earlier result, which is not subtracted: the total errs long, never short.
      nextResultsChars = resultsChars + jsonLength(node.id, Number.MAX_SAFE_INTEGER) + 2 + jsonLength(nextResults[node.id], limits.maxStepResultChars);
    } else {
      if (jsonLength(nextResults[node.id], limits.maxStepResultChars) > limits.maxStepResultChars) {
        return { kind: 'failed', error: `${node.id}: the result is longer than ${limits.maxStepResultChars} characters`, checkpoint };
      }
      // Measured again whole: blocks are few, and their steps' results join the top level's.
      nextResultsChars = jsonLength(nextResults, limits.maxResultsChars);
    }
    const stepId = node.id;
    if (nextResultsChars > limits.maxResultsChars) {
      return { kind: 'failed', error: `${stepId}: the results of the steps so far would be longer than ${limits.maxResultsChars} characters`, checkpoint };
    }
    let outputs: Record<string, string>;
    try {
      outputs = await evaluateOutputs(definition, { inputs, results: nextResults, completedSteps: index + 1 });
    } catch (error) {
      if (error instanceof ExpressionError) return { kind: 'failed', error: `${stepId}: ${error.message}`, checkpoint };
      throw error;
    }
    if (exceedsJsonLength(outputs, limits.maxOutputsChars)) {
      return { kind: 'failed', error: `${stepId}: the outputs would be longer than ${limits.maxOutputsChars} characters`, checkpoint };
    }
    // A step adds its own result; a block that is not a loop the results of the steps inside it
    // too (they share the top level's), which are found by what changed. What the node recorded
    // besides goes, but for the entries of those results themselves.
    const added: ProgressEntry[] =
      node.type === 'step' ? [[node.id, nextResults[node.id]]] : Object.entries(nextResults).filter(([id, value]) => !(id in results) || results[id] !== value);
    for (const entry of added) changes.entries.push(entry);
    if (recorded.length > 0) {
      const kept = new Set(added.map(([address]) => address));
      for (const address of recorded) if (!kept.has(address)) changes.superseded.push(address);
    }
    results = nextResults;
    resultsChars = nextResultsChars;
    nextStep = index + 1;
    checkpoint = { nextStep, results, outputs };
    unwritten = checkpoint;
    // Honoured after the last step too: a termination the API already acknowledged must not turn
    // into a success (the checkpoint then shows every step completed).
    if (effect || pacing.due() || nextStep >= compiled.steps.length) {
      const stopAfter = await writeCheckpoint();
      if (stopAfter !== undefined) return { kind: 'stopped', reason: stopAfter, checkpoint };
    }
  }
  return { kind: 'completed', checkpoint };
}
