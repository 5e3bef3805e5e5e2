import type { CaughtError, CompiledCondition, CompiledNode, CompiledStep, ErrorType, TemplateContext } from '@ces/language';
import { BLOCK_ENDED } from '@ces/language';
import type { StopReason } from '../stop-reason.ts';

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

/** A wait for a call back the run is suspended in: its token, the address of its step, and when it times out (epoch ms). */
export interface SuspendedCallback {
  readonly token: string;
  readonly address: string;
  /** Its own due time, which may be later than the run's (another branch's wait is due first). */
  readonly untilMs: number;
}

/**
 * What a `repeat` iteration leaves: its result, the item of the next iteration and whether its
 * `until` held (so that a resumed loop need not run it again to know).
 */
export interface RepeatIteration {
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
export interface Cancellation {
  cancelled: boolean;
  readonly controller: AbortController;
  /** What its steps are given: aborted when the block ends, or by the run's own stop. */
  readonly signal: AbortSignal;
  readonly parent: Cancellation | undefined;
}

/** Where a list of steps runs. */
export interface Scope {
  /** Results by step id; shared by the blocks that are not loops, one per iteration of a loop. */
  readonly results: Record<string, unknown>;
  readonly loop: { readonly item: unknown; readonly index: number } | undefined;
  readonly error: CaughtError | undefined;
  /** Address of the iteration the steps belong to (progress-address.ts), or "" at the top level. */
  readonly within: string;
  readonly cancellation: Cancellation | undefined;
}

/**
 * What a construct may ask of the interpreter that runs it (block-run.ts): to run the nodes it
 * holds, a step where it stands, a loop's iteration (replayed or run, then recorded as one progress
 * entry), and to evaluate its own values, failures being its own.
 */
export interface Interpreter {
  readonly maxStepResultChars: number;
  runNodes(nodes: readonly CompiledNode[], scope: Scope): Promise<Flow>;
  runStep(step: CompiledStep, scope: Scope): Promise<Flow>;
  iteration(
    node: { readonly id: string; readonly steps: readonly CompiledNode[] },
    scope: Scope,
    index: number,
    item: unknown,
    resultOf: (entry: RepeatIteration) => unknown,
    finish?: (iterationScope: Scope, result: unknown) => Promise<RepeatIteration | Flow>,
  ): Promise<{ type: 'iterated'; result: unknown; entry: unknown } | Flow>;
  evaluate(id: string, scope: Scope, evaluate: () => Promise<unknown>): Promise<{ type: 'ok'; value: unknown } | Extract<Flow, { type: 'failed' }>>;
  holds(condition: CompiledCondition, scope: Scope, id: string): Promise<boolean | Flow>;
  failed(address: string, type: ErrorType, message: string): Flow;
  /** Records that branch `index` of the parallel `parallelId` completed (a redrive reuses it whole); a flow when that cannot be. */
  branchCompleted(scope: Scope, parallelId: string, index: number): Flow | undefined;
  context(scope: Scope): TemplateContext;
  cancellationWithin(scope: Scope): Cancellation;
}

/** One construct of the language (a step, a choice, a loop…): how a node of its type runs. */
export type Construct<Type extends CompiledNode['type']> = (
  node: Extract<CompiledNode, { type: Type }>,
  scope: Scope,
  interpreter: Interpreter,
) => Promise<Flow>;

/**
 * A block's flow, its own result recorded: when done, a loop's or parallel's list, else the result
 * of the last step that ran in it.
 */
export function settle(id: string, scope: Scope, flow: Flow): Flow {
  if (flow.type === 'done') {
    const value = flow.last?.value ?? null;
    scope.results[id] = value;
    return { type: 'done', last: { value } };
  }
  // Waiting for a call back: its result so far, so that an output naming the block (a loop, whose
  // steps are out of the outputs' reach) shows the waiting step's URL.
  if (flow.type === 'suspended' && flow.partial !== undefined) scope.results[id] = flow.partial.value;
  return flow;
}

/** Whether a block around the step has ended; a stop of the whole run is not a cancellation. */
export function isCancelled(cancellation: Cancellation | undefined): boolean {
  for (let current = cancellation; current !== undefined; current = current.parent) if (current.cancelled) return true;
  return false;
}

/** A branch or iteration ended its block with `flow`: no further step starts, and one in flight stops when the block ends for good. */
export function endBlock(cancellation: Cancellation, flow: Flow): void {
  cancellation.cancelled = true;
  if (flow.type === 'failed' || flow.type === 'returned') cancellation.controller.abort(BLOCK_ENDED);
}
