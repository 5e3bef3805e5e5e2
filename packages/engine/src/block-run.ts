import {
  evaluateOutputValues,
  evaluateValue,
  ExpressionError,
  jsonLength,
  MAX_LOOP_CONCURRENCY,
  MAX_LOOP_ITERATIONS,
  MissingTemplateValueError,
  BLOCK_ENDED,
  callbackAddress,
  callbackTokenAddress,
  failureAddress,
  isInsideIteration,
  iterationAddress,
  stepAddress,
  wakeAddress,
} from '@ces/choreos';
import type { AccountState, CaughtError, ChildRuns, CompiledNode, CompiledStep, ErrorType, StepLibrary, StepSuspension, TemplateContext } from '@ces/choreos';
import type { CompiledCondition } from '@ces/choreos';
import { runStep } from './run-step.ts';
import type { StepAttempt } from './run-step.ts';
import { stopReasonOf } from './stop-reason.ts';
import type { StopReason } from './stop-reason.ts';
import type { WritePacing } from './write-pacing.ts';

/**
 * How a list of steps inside a block ended:
 * - `done`: every step that had to run ran; `last` holds the result of the last one (none ran: absent);
 * - `failed`: a step or a `fail` failed and nothing caught it;
 * - `stopped`: the run must stop (termination, time limit, shutdown…) before its next step;
 * - `returned`: a `return` ended the run with these outputs;
 * - `cancelled`: a sibling (another branch, another iteration) ended the block first;
 * - `suspended`: a step asked for the run to be suspended until `untilMs` (a durable wait); the
 *   wait's due time is among the pending entries, so that the resumed step ends its wait then.
 *   Waiting for a call back, `partial` is the result so far of what holds the waiting step (its
 *   URL; a loop's iterations so far, the waiting one last), for the outputs shown while it waits.
 */
export type Flow =
  | { type: 'done'; last: { value: unknown } | undefined }
  | { type: 'failed'; error: CaughtError }
  | { type: 'stopped'; reason: StopReason }
  | { type: 'returned'; outputs: Record<string, string> }
  | { type: 'cancelled' }
  | { type: 'suspended'; untilMs: number; callback?: SuspendedCallback; partial?: { value: unknown } };

/** A wait for a call back the run is suspended in: its token, and the address of its step. */
export interface SuspendedCallback {
  readonly token: string;
  readonly address: string;
}

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

/** An entry of a run's progress inside a top-level block: its address and its value. */
export type ProgressEntry = readonly [string, unknown];

/**
 * What a `repeat` iteration leaves: its result, the item of the next iteration and whether its
 * `until` held (so that a resumed loop need not run it again to know).
 */
interface RepeatIteration {
  result: unknown;
  item: unknown;
  done: boolean;
}

/**
 * A block that may end while some of its steps still run (a `parallel`, a `forEach`). Once a
 * branch or iteration fails, returns, stops or suspends, the others start no further step; when the
 * block ends for good (a failure, a `return`), its steps' signal is aborted with BLOCK_ENDED too, so
 * that a step in flight stops at once (a child execution it waits for ends with it). A run that
 * stops or suspends keeps its steps in flight: it is resumed, and they with it.
 */
interface Cancellation {
  cancelled: boolean;
  readonly controller: AbortController;
  /** What its steps are given: aborted when the block ends, or by the run's own stop. */
  readonly signal: AbortSignal;
  readonly parent: Cancellation | undefined;
}

/** Where a list of steps runs. */
interface Scope {
  /** Results by step id; shared by the blocks that are not loops, one per iteration of a loop. */
  readonly results: Record<string, unknown>;
  readonly loop: { readonly item: unknown; readonly index: number } | undefined;
  readonly error: CaughtError | undefined;
  /** Address of the iteration the steps belong to (progress-address.ts), or "" at the top level. */
  readonly within: string;
  readonly cancellation: Cancellation | undefined;
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
  onStepEnd?:
    | ((event: { id: string; address: string; iteration?: number; kind: string; durationMs: number; ok: boolean; attempts: readonly StepAttempt[] }) => void)
    | undefined;
  readonly maxStepResultChars: number;
  /** Longest total of the entries recorded for the block. */
  readonly maxProgressChars: number;
  readonly childRuns?: ChildRuns | undefined;
}

/**
 * Runs one top-level block: branches, loops, parallel branches, try/catch/finally, return, fail.
 *
 * Every step that completes inside it, and every iteration of a loop, becomes an entry of the run's
 * progress, by address: `fetch` for a step, `pages[3]` for iteration 3 of loop `pages`, and
 * `pages[3].fetch` for a step inside that iteration (loops nest: `a[1].b[2].c`). Entries are
 * recorded in batches: before a step with an effect starts, before any step once one with an
 * effect completed, and otherwise once pure work (pure-steps.ts) has gone unwritten for the
 * pacing's bound, so a loop of pure steps records a batch per bound, not one per step, and a
 * crash recomputes at most that much pure work. A completed iteration replaces the entries of its
 * steps in the batch, so a loop whose body is one step records one entry per iteration. A step that failed is recorded as `<address>!` with its error, so that a `catch` that
 * took it takes it again on resume. A resumed block runs again from its start, replaying what is
 * recorded: a completed iteration is taken whole from its entry, a completed step from its own;
 * conditions are evaluated again on the same values and so choose the same branches.
 */
export class BlockRun {
  private readonly options: BlockRunOptions;
  private pending: ProgressEntry[] = [];
  /** Whether `pending` holds what a step with an effect did: it goes before the next step starts. */
  private unwrittenEffect = false;
  private progressChars = 0;

  constructor(options: BlockRunOptions) {
    this.options = options;
    for (const [address, value] of options.progress) this.progressChars += entryLength(address, value);
  }

  /** Runs `node` with the top-level results (updated in place with what runs). */
  run(node: CompiledNode, results: Record<string, unknown>): Promise<Flow> {
    return this.runNode(node, { results, loop: undefined, error: undefined, within: '', cancellation: undefined });
  }

  private async runNodes(nodes: readonly CompiledNode[], scope: Scope): Promise<Flow> {
    let last: { value: unknown } | undefined;
    for (const node of nodes) {
      const flow = await this.runNode(node, scope);
      if (flow.type !== 'done') return flow;
      if (flow.last !== undefined) last = flow.last;
    }
    return { type: 'done', last };
  }

  private async runNode(node: CompiledNode, scope: Scope): Promise<Flow> {
    let flow: Flow;
    switch (node.type) {
      case 'step':
        return this.runStep(node, scope);
      case 'choice': {
        let branch = node.otherwise;
        for (const candidate of node.branches) {
          const holds = await this.holds(candidate.when, scope, node.id);
          if (typeof holds !== 'boolean') return holds;
          if (holds) {
            branch = candidate.steps;
            break;
          }
        }
        flow = await this.runNodes(branch, scope);
        break;
      }
      case 'forEach':
        flow = await this.runForEach(node, scope);
        break;
      case 'repeat':
        flow = await this.runRepeat(node, scope);
        break;
      case 'parallel': {
        const cancellation = this.cancellationWithin(scope);
        let first: Flow | undefined;
        const flows = await Promise.all(
          node.branches.map(async (branch) => {
            const branchFlow = await this.runNodes(branch, { ...scope, cancellation });
            if (branchFlow.type !== 'done' && branchFlow.type !== 'cancelled' && first === undefined) {
              first = branchFlow;
              endBlock(cancellation, branchFlow);
            }
            return branchFlow;
          }),
        );
        if (first !== undefined) return first;
        flow = { type: 'done', last: { value: flows.map((branchFlow) => (branchFlow.type === 'done' ? (branchFlow.last?.value ?? null) : null)) } };
        break;
      }
      case 'try': {
        flow = await this.runNodes(node.steps, scope);
        if (flow.type === 'failed') {
          const caught = flow.error;
          const handler = node.handlers.find((candidate) => candidate.errors === undefined || candidate.errors.has(caught.type as ErrorType));
          if (handler !== undefined) flow = await this.runNodes(handler.steps, { ...scope, error: caught });
        }
        // A stopped run is resumed (or ended by its termination) without running `finally`.
        if (node.finally !== undefined && (flow.type === 'done' || flow.type === 'failed' || flow.type === 'returned')) {
          const after = await this.runNodes(node.finally, scope);
          if (after.type !== 'done') return after;
        }
        break;
      }
      case 'return': {
        const outputs = await this.evaluate(node.id, scope, () => evaluateOutputValues(node.outputs, this.context(scope)));
        return outputs.type === 'failed' ? outputs : { type: 'returned', outputs: outputs.value as Record<string, string> };
      }
      case 'fail': {
        const message = await this.evaluate(node.id, scope, () => evaluateValue(node.message, this.context(scope)));
        if (message.type === 'failed') return message;
        const text = typeof message.value === 'string' ? message.value : JSON.stringify(message.value);
        return { type: 'failed', error: { type: 'fail', message: text, step: stepAddress(scope.within, node.id) } };
      }
    }
    if (flow.type === 'done') {
      // A block's own result: a loop's or parallel's list, else the result of the last step that ran in it.
      const value = flow.last?.value ?? null;
      scope.results[node.id] = value;
      return { type: 'done', last: { value } };
    }
    // Waiting for a call back: its result so far, so that an output naming the block (a loop, whose
    // steps are out of the outputs' reach) shows the waiting step's URL.
    if (flow.type === 'suspended' && flow.partial !== undefined) scope.results[node.id] = flow.partial.value;
    return flow;
  }

  private async runStep(step: CompiledStep, scope: Scope): Promise<Flow> {
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

    const started = performance.now();
    const { onStepEnd } = this.options;
    const attempts: StepAttempt[] | undefined = onStepEnd && [];
    const suspension = suspensionAt(this.options.suspension, progress, address);
    const outcome = await runStep(
      step,
      this.options.steps.get(step.kind),
      this.context(scope),
      scope.cancellation?.signal ?? this.options.signal,
      { address, childRuns: this.options.childRuns, suspension, account: this.options.account },
      attempts,
    );
    this.options.pacing.stepEnded();
    if (onStepEnd !== undefined) {
      onStepEnd({
        id: step.id,
        address,
        ...(scope.loop !== undefined ? { iteration: scope.loop.index } : {}),
        kind: step.kind,
        durationMs: performance.now() - started,
        ok: outcome.type === 'ok',
        attempts: attempts ?? [],
      });
    }
    if (outcome.type === 'stopped') return this.options.signal?.aborted !== true && isCancelled(scope.cancellation) ? { type: 'cancelled' } : outcome;
    // What a step with an effect did, or how it failed, goes before the next step starts.
    if (!pure) this.unwrittenEffect = true;
    if (outcome.type === 'suspended') {
      // Recorded with the rest (flush): every suspended wait, in any branch, keeps its due time.
      this.pending.push(...suspensionEntries(address, outcome.untilMs, outcome.callback));
      if (outcome.callback === undefined) return { type: 'suspended', untilMs: outcome.untilMs };
      // Its result so far (its URL), for the outputs computed while the run waits.
      scope.results[step.id] = outcome.callback.partial;
      return {
        type: 'suspended',
        untilMs: outcome.untilMs,
        callback: { token: outcome.callback.token, address },
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

  private async runForEach(node: Extract<CompiledNode, { type: 'forEach' }>, scope: Scope): Promise<Flow> {
    const listed = await this.evaluate(node.id, scope, () => evaluateValue(node.items, this.context(scope)));
    if (listed.type === 'failed') return listed;
    let items = listed.value;
    if (typeof items === 'string') {
      try {
        items = JSON.parse(items);
      } catch {
        // reported below
      }
    }
    if (!Array.isArray(items)) return this.failed(stepAddress(scope.within, node.id), 'invalid', 'forEach needs a JSON array');
    if (items.length > MAX_LOOP_ITERATIONS)
      return this.failed(stepAddress(scope.within, node.id), 'limit', `forEach lists ${items.length} items, more than ${MAX_LOOP_ITERATIONS}`);

    const wanted = await this.evaluate(node.id, scope, () => evaluateValue(node.concurrency, this.context(scope)));
    if (wanted.type === 'failed') return wanted;
    const concurrency =
      typeof wanted.value === 'number' ? wanted.value : typeof wanted.value === 'string' && wanted.value.trim() !== '' ? Number(wanted.value) : Number.NaN;
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_LOOP_CONCURRENCY) {
      return this.failed(
        stepAddress(scope.within, node.id),
        'invalid',
        `concurrency must be a whole number from 1 to ${MAX_LOOP_CONCURRENCY}, not ${JSON.stringify(wanted.value)}`,
      );
    }

    const list: unknown[] = items;
    const results: unknown[] = new Array(list.length).fill(null);
    const cancellation = this.cancellationWithin(scope);
    const size = new LoopSize(this.options.maxStepResultChars);
    let first: Flow | undefined;
    let next = 0;
    /** The iteration waiting for a call back, when one does. */
    let waiting: number | undefined;
    const lane = async () => {
      while (first === undefined && next < list.length) {
        const index = next++;
        const flow = await this.iteration(node, { ...scope, cancellation }, index, list[index], (iteration) => iteration.result);
        if (flow.type === 'iterated') {
          results[index] = flow.result;
          if (size.add(flow.result)) {
            first ??= this.failed(
              stepAddress(scope.within, node.id),
              'limit',
              `the results of its iterations are longer than ${this.options.maxStepResultChars} characters`,
            );
            endBlock(cancellation, first);
          }
        } else if (flow.type !== 'cancelled' && first === undefined) {
          first = flow;
          endBlock(cancellation, flow);
          if (flow.type === 'suspended' && flow.partial !== undefined) {
            results[index] = flow.partial.value;
            waiting = index;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, list.length) }, lane));
    // The iterations so far, up to the one waiting (whose result is its waiting step's).
    if (first?.type === 'suspended' && waiting !== undefined) return { ...first, partial: { value: results.slice(0, waiting + 1) } };
    return first ?? { type: 'done', last: { value: results } };
  }

  private async runRepeat(node: Extract<CompiledNode, { type: 'repeat' }>, scope: Scope): Promise<Flow> {
    let item: unknown = null;
    if (node.item !== undefined) {
      const start = node.item;
      const first = await this.evaluate(node.id, scope, () => evaluateValue(start, this.context(scope)));
      if (first.type === 'failed') return first;
      item = first.value;
    }
    const results: unknown[] = [];
    const size = new LoopSize(this.options.maxStepResultChars);
    for (let index = 0; ; index++) {
      if (index >= node.maxIterations) {
        return this.failed(stepAddress(scope.within, node.id), 'limit', `ran ${node.maxIterations} iterations (its maxIterations) without its "until" holding`);
      }
      const flow = await this.iteration(
        node,
        scope,
        index,
        item,
        (iteration) => iteration.result,
        async (iterationScope, result) => {
          const until = await this.holds(node.until, iterationScope, node.id);
          if (typeof until !== 'boolean') return until;
          let nextItem = item;
          if (!until && node.nextItem !== undefined) {
            const template = node.nextItem;
            const evaluated = await this.evaluate(node.id, iterationScope, () => evaluateValue(template, this.context(iterationScope)));
            if (evaluated.type === 'failed') return evaluated;
            nextItem = evaluated.value;
          }
          return { result, item: nextItem, done: until };
        },
      );
      if (flow.type === 'suspended' && flow.partial !== undefined) return { ...flow, partial: { value: [...results, flow.partial.value] } };
      if (flow.type !== 'iterated') return flow;
      const recorded = flow.entry as RepeatIteration;
      results.push(recorded.result);
      if (size.add(recorded.result)) {
        return this.failed(
          stepAddress(scope.within, node.id),
          'limit',
          `the results of its iterations are longer than ${this.options.maxStepResultChars} characters`,
        );
      }
      if (recorded.done) return { type: 'done', last: { value: results } };
      item = recorded.item;
    }
  }

  /**
   * One iteration of a loop: taken from its entry when an earlier run completed it, else run, then
   * recorded as one entry that replaces those of its steps. `finish` turns the iteration's result
   * into its entry (a `repeat`'s adds its `until` and its next item); without it the entry is the result.
   */
  private async iteration(
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
    const flow = await this.runNodes(node.steps, iterationScope);
    if (flow.type !== 'done') return flow;
    const result = flow.last?.value ?? null;
    let entry: unknown = result;
    if (finish !== undefined) {
      const finished = await finish(iterationScope, result);
      if ('type' in finished) return finished;
      entry = finished;
    }
    // The iteration's entry stands for its steps': theirs need not be written any more.
    this.pending = this.pending.filter(([pendingAddress]) => !isInsideIteration(pendingAddress, address));
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

  /** Whether a step with an effect completed since the last write: the checkpoint after the block then goes at once. */
  hasUnwrittenEffect(): boolean {
    return this.unwrittenEffect;
  }

  private cancellationWithin(scope: Scope): Cancellation {
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

  /** A failure, recorded (with the next batch, if the run goes on) so that a resumed run meets it again. */
  private failed(address: string, type: ErrorType, message: string): Flow {
    const error: CaughtError = { type, message, step: address };
    this.pending.push([failureAddress(address), error]);
    return { type: 'failed', error };
  }

  private async holds(condition: CompiledCondition, scope: Scope, id: string): Promise<boolean | Flow> {
    const holds = await this.evaluate(id, scope, () => condition.holds(this.context(scope)));
    return holds.type === 'failed' ? holds : (holds.value as boolean);
  }

  /** Evaluates a block's own value (a condition, a list, a message); a failure is the block's. */
  private async evaluate(
    id: string,
    scope: Scope,
    evaluate: () => Promise<unknown>,
  ): Promise<{ type: 'ok'; value: unknown } | Extract<Flow, { type: 'failed' }>> {
    try {
      return { type: 'ok', value: await evaluate() };
    } catch (error) {
      if (error instanceof MissingTemplateValueError || error instanceof ExpressionError) {
        return { type: 'failed', error: { type: 'invalid', message: error.message, step: stepAddress(scope.within, id) } };
      }
      throw error;
    }
  }

  private context(scope: Scope): TemplateContext {
    return { inputs: this.options.inputs, results: scope.results, completedSteps: this.options.topIndex, loop: scope.loop, error: scope.error };
  }
}

/** Whether a block around the step has ended; a stop of the whole run is not a cancellation. */
function isCancelled(cancellation: Cancellation | undefined): boolean {
  for (let current = cancellation; current !== undefined; current = current.parent) if (current.cancelled) return true;
  return false;
}

/** A branch or iteration ended its block with `flow`: no further step starts, and one in flight stops when the block ends for good. */
function endBlock(cancellation: Cancellation, flow: Flow): void {
  cancellation.cancelled = true;
  if (flow.type === 'failed' || flow.type === 'returned') cancellation.controller.abort(BLOCK_ENDED);
}

function entryLength(address: string, value: unknown): number {
  return address.length + jsonLength(value, Number.MAX_SAFE_INTEGER);
}

/** The running length of a loop's list of results, which becomes one step result. */
class LoopSize {
  private chars = 2;
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Adds a result; tells whether the list is now too long. */
  add(result: unknown): boolean {
    this.chars += jsonLength(result, this.limit) + 1;
    return this.chars > this.limit;
  }
}
