import {
  branchAddress,
  callbackAddress,
  callbackTokenAddress,
  ExpressionError,
  failureAddress,
  isInsideIteration,
  iterationAddress,
  jsonLength,
  MissingTemplateValueError,
  stepAddress,
  wakeAddress,
  type ProgressEntry,
} from '@ces/language';
import type {
  AccountState,
  CaughtError,
  ChildRuns,
  CompiledCondition,
  CompiledNode,
  CompiledStep,
  ErrorType,
  StepLibrary,
  StepSuspension,
  TemplateContext,
} from '@ces/language';
import { isCancelled } from './constructs/construct.ts';
import type { Cancellation, Flow, Interpreter, RepeatIteration, Scope } from './constructs/construct.ts';
import { CONSTRUCTS } from './constructs/constructs.ts';
import type { ProgressListener } from './progress-events.ts';
import { runStep } from './run-step.ts';
import type { StepAttempt } from './run-step.ts';
import type { StepEndEvent } from './step-end-event.ts';
import { stopReasonOf } from './stop-reason.ts';
import type { StopReason } from './stop-reason.ts';
import type { WritePacing } from './write-pacing.ts';

/** How a run may be suspended: waits from `minimumMs` on, and call backs to the URLs `callbackUrl` makes. */
export interface SuspensionPolicy {
  readonly minimumMs: number;
  callbackUrl(token: string): string | undefined;
}

/** What a step at `address` may know of its suspension, from the progress recorded for it. */
export function suspensionAt(
  policy: SuspensionPolicy | undefined,
  progress: ReadonlyMap<string, unknown> | undefined,
  address: string,
): StepSuspension | undefined {
  if (policy === undefined) return undefined;
  const wake = progress?.get(wakeAddress(address));
  const token = progress?.get(callbackTokenAddress(address));
  const delivered = progress?.get(callbackAddress(address));
  return {
    minimumMs: policy.minimumMs,
    wakeAtMs: typeof wake === 'number' ? wake : undefined,
    callbackToken: typeof token === 'string' ? token : undefined,
    delivered: delivered !== undefined && delivered !== null && typeof delivered === 'object' && 'body' in delivered ? { body: delivered.body } : undefined,
    callbackUrl: (value) => policy.callbackUrl(value),
  };
}

/** The entries that record a suspension of the step at `address`, to be stored before the run is suspended. */
export function suspensionEntries(address: string, untilMs: number, callback: { token: string } | undefined): ProgressEntry[] {
  const entries: ProgressEntry[] = [[wakeAddress(address), untilMs]];
  if (callback !== undefined) entries.push([callbackTokenAddress(address), callback.token]);
  return entries;
}

export interface BlockRunOptions {
  readonly inputs: Record<string, string>;
  readonly steps: StepLibrary;
  /** The top-level step (the block) being run: `run.completedSteps`, and the hooks' index. */
  readonly topIndex: number;
  /** What earlier runs of this block completed, by address: replayed, never run again. */
  readonly progress: ReadonlyMap<string, unknown>;
  readonly signal: AbortSignal | undefined;
  /** How the run may be suspended (durable waits, call backs); absent: every wait is in-process. */
  readonly suspension: SuspensionPolicy | undefined;
  /** The state of the run's account, handed to every step (StepContext `account`). */
  readonly account?: AccountState | undefined;
  beforeStep(index: number): StopReason | undefined | Promise<StopReason | undefined>;
  /**
   * Persists entries that completed (possibly none: whatever the run holds back is written then
   * too); may ask to stop.
   */
  record(entries: ProgressEntry[]): Promise<StopReason | undefined>;
  /** Whether a step is pure (pure-steps.ts): its entry may wait for a later write. */
  isPure(step: CompiledStep): boolean;
  /** When held-back entries are written anyway; shared with the top level. */
  readonly pacing: WritePacing;
  onStepEnd?: ((event: Omit<StepEndEvent, 'index'>) => void) | undefined;
  /** Told the starts of steps and iterations, the ends of iterations, the waits begun. */
  onProgress?: ProgressListener | undefined;
  readonly maxStepResultChars: number;
  /** Longest total of the entries recorded for the block. */
  readonly maxProgressChars: number;
  readonly childRuns?: ChildRuns | undefined;
}

/**
 * The interpreter: runs one top-level node — a step, or a block of branches, loops, parallel
 * branches, try/catch/finally, return, fail — each node by its construct (constructs/), and every
 * step the same way wherever it stands (`runStep`).
 *
 * Every step that completes inside it, and every iteration of a loop, becomes an entry of the run's
 * progress, by address (progress-address.ts in @ces/language): `fetch` for a step, `pages[3]` for
 * iteration 3 of loop `pages`, and `pages[3].fetch` for a step inside that iteration. Entries are
 * recorded in batches: before a step with an effect starts, before any step once one with an
 * effect completed, and otherwise once pure work (pure-steps.ts) has gone unwritten for the
 * pacing's bound, so a loop of pure steps records a batch per bound, not one per step, and a
 * crash recomputes at most that much pure work. A completed iteration replaces the entries of its
 * steps in the batch, so a loop whose body is one step records one entry per iteration. A step
 * that failed is recorded as `<address>!` with its error, so that a `catch` that
 * took it takes it again on resume. A resumed block runs again from its start, replaying what is
 * recorded: a completed iteration is taken whole from its entry, a completed step from its own;
 * conditions are evaluated again on the same values and so choose the same branches.
 */
export class BlockRun implements Interpreter {
  private readonly options: BlockRunOptions;
  private pending: ProgressEntry[] = [];
  /** Whether `pending` holds what a step with an effect did: it goes before the next step starts. */
  private unwrittenEffect = false;
  private progressChars = 0;
  /** The run's suspension so far: the earliest wait's due time, and the children waited for. */
  private suspended: { untilMs: number; children: string[] } = { untilMs: Number.POSITIVE_INFINITY, children: [] };

  get maxStepResultChars(): number {
    return this.options.maxStepResultChars;
  }

  constructor(options: BlockRunOptions) {
    this.options = options;
    for (const [address, value] of options.progress) this.progressChars += entryLength(address, value);
  }

  /** Runs `node` with the top-level results (updated in place with what runs). */
  run(node: CompiledNode, results: Record<string, unknown>): Promise<Flow> {
    return this.runNode(node, { results, loop: undefined, error: undefined, within: '', cancellation: undefined });
  }

  async runNodes(nodes: readonly CompiledNode[], scope: Scope): Promise<Flow> {
    let last: { value: unknown } | undefined;
    for (const node of nodes) {
      const flow = await this.runNode(node, scope);
      if (flow.type !== 'done') return flow;
      if (flow.last !== undefined) last = flow.last;
    }
    return { type: 'done', last };
  }

  /** Runs a node with its construct (constructs/), wherever it stands. */
  private runNode(node: CompiledNode, scope: Scope): Promise<Flow> {
    return (CONSTRUCTS[node.type] as (node: CompiledNode, scope: Scope, interpreter: Interpreter) => Promise<Flow>)(node, scope, this);
  }

  async runStep(step: CompiledStep, scope: Scope): Promise<Flow> {
    const address = stepAddress(scope.within, step.id);
    const { progress } = this.options;
    if (progress.has(address)) {
      const value = progress.get(address);
      scope.results[step.id] = value;
      return { type: 'done', last: { value } };
    }
    const failure = progress.get(failureAddress(address)) as CaughtError | undefined;
    if (failure !== undefined) return { type: 'failed', error: failure };
    if (isCancelled(scope.cancellation)) return { type: 'cancelled' };
    const pure = this.options.isPure(step);
    const stop = await this.boundary(pure);
    if (stop !== undefined) return { type: 'stopped', reason: stop };
    // Another branch may have ended the block while this one waited for the boundary.
    if (isCancelled(scope.cancellation)) return { type: 'cancelled' };

    const { onStepEnd, onProgress } = this.options;
    if (onProgress !== undefined) {
      const told = onProgress({
        type: 'step.started',
        index: this.options.topIndex,
        id: step.id,
        address,
        ...(scope.loop !== undefined ? { iteration: scope.loop.index } : {}),
        attempt: 1,
        time: Date.now(),
        pure,
      });
      if (told !== undefined) await told;
    }
    const started = performance.now();
    const attempts: StepAttempt[] | undefined = onStepEnd && [];
    const suspension = suspensionAt(this.options.suspension, progress, address);
    const outcome = await runStep(
      step,
      this.options.steps.get(step.kind),
      this.context(scope),
      scope.cancellation?.signal ?? this.options.signal,
      {
        address,
        childRuns: this.options.childRuns,
        suspension,
        account: this.options.account,
        ...(onProgress !== undefined
          ? {
              waitBegins: (untilMs: number) =>
                onProgress({ type: 'wait.started', index: this.options.topIndex, address, waitFor: 'time', untilMs, time: Date.now(), inWorker: true }),
            }
          : {}),
      },
      attempts,
    );
    this.options.pacing.stepEnded(attempts?.length ?? 1);
    if (onStepEnd !== undefined) {
      onStepEnd({
        id: step.id,
        address,
        ...(scope.loop !== undefined ? { iteration: scope.loop.index } : {}),
        kind: step.kind,
        durationMs: performance.now() - started,
        ok: outcome.type === 'ok',
        ...(outcome.type === 'suspended' ? { suspended: true as const } : {}),
        attempts: attempts ?? [],
      });
    }
    if (outcome.type === 'stopped') return this.options.signal?.aborted !== true && isCancelled(scope.cancellation) ? { type: 'cancelled' } : outcome;
    // What a step with an effect did, or how it failed, goes before the next step starts.
    if (!pure) this.unwrittenEffect = true;
    if (outcome.type === 'suspended') {
      if (onProgress !== undefined) {
        const told = onProgress({
          type: 'wait.started',
          index: this.options.topIndex,
          address,
          waitFor: outcome.child !== undefined ? 'child' : outcome.callback === undefined ? 'time' : 'callback',
          ...(Number.isFinite(outcome.untilMs) ? { untilMs: outcome.untilMs } : {}),
          ...(outcome.child !== undefined ? { child: outcome.child } : {}),
          time: Date.now(),
        });
        if (told !== undefined) await told;
      }
      // Recorded with the rest (flush): every suspended wait, in any branch, keeps its due time.
      this.pending.push(...suspensionEntries(address, outcome.untilMs, outcome.callback));
      this.suspended.untilMs = Math.min(this.suspended.untilMs, outcome.untilMs);
      if (outcome.child !== undefined) this.suspended.children.push(outcome.child);
      if (outcome.callback === undefined) return { type: 'suspended', untilMs: outcome.untilMs };
      // Its result so far (its URL), for the outputs computed while the run waits.
      scope.results[step.id] = outcome.callback.partial;
      return {
        type: 'suspended',
        untilMs: outcome.untilMs,
        callback: { token: outcome.callback.token, address, untilMs: outcome.untilMs },
        partial: { value: outcome.callback.partial },
      };
    }
    if (outcome.type === 'failed') return this.failed(address, outcome.errorType, outcome.message);
    if (jsonLength(outcome.value, this.options.maxStepResultChars) > this.options.maxStepResultChars) {
      return this.failed(address, 'limit', `the result is longer than ${this.options.maxStepResultChars} characters`);
    }
    const tooLong = this.append(address, outcome.value);
    if (tooLong !== undefined) return tooLong;
    scope.results[step.id] = outcome.value;
    return { type: 'done', last: { value: outcome.value } };
  }

  /**
   * One iteration of a loop: taken from its entry when an earlier run completed it, else run, then
   * recorded as one entry that replaces those of its steps. `finish` turns the iteration's result
   * into its entry (a `repeat`'s adds its `until` and its next item); without it the entry is the result.
   */
  async iteration(
    node: { readonly id: string; readonly steps: readonly CompiledNode[] },
    scope: Scope,
    index: number,
    item: unknown,
    resultOf: (entry: RepeatIteration) => unknown,
    finish?: (iterationScope: Scope, result: unknown) => Promise<RepeatIteration | Flow>,
  ): Promise<{ type: 'iterated'; result: unknown; entry: unknown } | Flow> {
    const address = iterationAddress(scope.within, node.id, index);
    if (this.options.progress.has(address)) {
      const entry = this.options.progress.get(address);
      return { type: 'iterated', result: finish === undefined ? entry : resultOf(entry as RepeatIteration), entry };
    }
    const iterationScope: Scope = {
      results: { ...scope.results },
      loop: { item, index },
      error: scope.error,
      within: address,
      cancellation: scope.cancellation,
    };
    // Where this iteration's entries start among those not yet written: before it, none are its own.
    const batch = this.pending;
    const firstOwn = batch.length;
    const { onProgress } = this.options;
    const started = performance.now();
    if (onProgress !== undefined) {
      const told = onProgress({ type: 'iteration.started', index: this.options.topIndex, address, iteration: index, time: Date.now() });
      if (told !== undefined) await told;
    }
    const flow = await this.runNodes(node.steps, iterationScope);
    if (onProgress !== undefined && flow.type !== 'suspended') {
      const told = onProgress({
        type: 'iteration.ended',
        index: this.options.topIndex,
        address,
        iteration: index,
        time: Date.now(),
        outcome: flow.type === 'done' ? 'succeeded' : flow.type === 'failed' ? 'failed' : 'stopped',
        durationMs: performance.now() - started,
        ...(flow.type === 'failed' ? { error: `${flow.error.step}: ${flow.error.message}` } : {}),
      });
      if (told !== undefined) await told;
    }
    if (flow.type !== 'done') return flow;
    const result = flow.last?.value ?? null;
    let entry: unknown = result;
    if (finish !== undefined) {
      const finished = await finish(iterationScope, result);
      if ('type' in finished) return finished;
      entry = finished;
    }
    // The iteration's entry stands for its steps': theirs need not be written any more. Only the
    // entries added since it started can be theirs (unless a write took the batch meanwhile): held
    // back pure work may hold hundreds, which a filter of them all would go through per iteration.
    const pending = this.pending;
    let kept = pending === batch ? firstOwn : 0;
    for (let read = kept; read < pending.length; read++) {
      const pendingEntry = pending[read] as ProgressEntry;
      if (!isInsideIteration(pendingEntry[0], address)) pending[kept++] = pendingEntry;
    }
    pending.length = kept;
    const tooLong = this.append(address, entry);
    if (tooLong !== undefined) return tooLong;
    return { type: 'iterated', result, entry };
  }

  /** Records what completed since the last write, and what the run holds back: before the run is suspended, say. */
  async flush(): Promise<StopReason | undefined> {
    const entries = this.pending;
    this.pending = [];
    this.unwrittenEffect = false;
    return this.options.record(entries);
  }

  /** Takes the entries not yet written, for the caller to store its own way (a top-level step's wait). */
  takePending(): ProgressEntry[] {
    const entries = this.pending;
    this.pending = [];
    return entries;
  }

  /**
   * Every wait the block suspended in, whichever branch or iteration reported it first: the run is
   * due at the earliest, and sooner when a child it waits for ends.
   */
  suspension(): { untilMs: number; children: readonly string[] } {
    return this.suspended;
  }

  /** Whether a step with an effect completed since the last write: the checkpoint after the block then goes at once. */
  hasUnwrittenEffect(): boolean {
    return this.unwrittenEffect;
  }

  cancellationWithin(scope: Scope): Cancellation {
    const controller = new AbortController();
    const outer = scope.cancellation?.signal ?? this.options.signal;
    return {
      cancelled: false,
      controller,
      signal: outer === undefined ? controller.signal : AbortSignal.any([controller.signal, outer]),
      parent: scope.cancellation,
    };
  }

  /**
   * Before a step (`pure` or not): records what completed since the last write when it must go now,
   * then asks whether to stop.
   */
  private async boundary(pure: boolean): Promise<StopReason | undefined> {
    if (!pure || this.unwrittenEffect || this.options.pacing.due()) {
      const recorded = await this.flush();
      if (recorded !== undefined) return recorded;
    }
    const stop = await this.options.beforeStep(this.options.topIndex);
    if (stop !== undefined) return stop;
    const { signal } = this.options;
    return signal?.aborted === true ? stopReasonOf(signal) : undefined;
  }

  private append(address: string, value: unknown): Flow | undefined {
    this.progressChars += entryLength(address, value);
    if (this.progressChars > this.options.maxProgressChars) {
      return this.failed(address, 'limit', `the results recorded inside the block would be longer than ${this.options.maxProgressChars} characters`);
    }
    this.pending.push([address, value]);
    return undefined;
  }

  branchCompleted(scope: Scope, parallelId: string, index: number): Flow | undefined {
    return this.append(branchAddress(scope.within, parallelId, index), null);
  }

  /** A failure, recorded (with the next batch, if the run goes on) so that a resumed run meets it again. */
  failed(address: string, type: ErrorType, message: string): Flow {
    const error: CaughtError = { type, message, step: address };
    this.pending.push([failureAddress(address), error]);
    return { type: 'failed', error };
  }

  async holds(condition: CompiledCondition, scope: Scope, id: string): Promise<boolean | Flow> {
    const holds = await this.evaluate(id, scope, () => condition.holds(this.context(scope)));
    return holds.type === 'failed' ? holds : (holds.value as boolean);
  }

  /** Evaluates a block's own value (a condition, a list, a message); a failure is the block's. */
  async evaluate(id: string, scope: Scope, evaluate: () => Promise<unknown>): Promise<{ type: 'ok'; value: unknown } | Extract<Flow, { type: 'failed' }>> {
    try {
      return { type: 'ok', value: await evaluate() };
    } catch (error) {
      if (error instanceof MissingTemplateValueError || error instanceof ExpressionError) {
        return { type: 'failed', error: { type: 'invalid', message: error.message, step: stepAddress(scope.within, id) } };
      }
      throw error;
    }
  }

  context(scope: Scope): TemplateContext {
    return { inputs: this.options.inputs, results: scope.results, completedSteps: this.options.topIndex, loop: scope.loop, error: scope.error };
  }
}

function entryLength(address: string, value: unknown): number {
  return address.length + jsonLength(value, Number.MAX_SAFE_INTEGER);
}
