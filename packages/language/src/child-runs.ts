import { suspendForChild } from './step-command.ts';
import { StepAbortedError, StepFailedError, StepTimeoutError } from './step-errors.ts';

/** Deepest nesting of sub-Choreos: a run at this depth may not start another. */
export const MAX_CHILD_DEPTH = 8;

/** How a child execution ended: its terminal status, its outputs, its error when it failed. */
export interface ChildEnd {
  status: string;
  outputs: Record<string, string>;
  error?: string;
}

/**
 * What a `choreo.run` step may do outside its run: start a child execution of another Choreo for
 * the run it belongs to, and wait for its end. Given to the engine by whoever runs it (a worker);
 * elsewhere there is none, and the step fails.
 */
export interface ChildRuns {
  /**
   * Accepts the child of the step at `address` of the current run, or finds the one accepted for
   * it already (a resumed run): the same address always names the same child. Rejects with
   * ChildRefusedError when the Choreo cannot run as a child (unknown, invalid, too deep, inputs
   * missing). `resumed`: the run was suspended waiting for this step's child, which it accepted
   * then; found, it is not accepted again.
   */
  start(request: { choreo: string; inputs: Record<string, string>; address: string; resumed?: boolean }): Promise<{ id: string }>;
  /**
   * Resolves when the child has ended. When `signal` aborts, stops waiting, ends the child too
   * when the parent is terminated (not when it is only handed back), and rejects.
   */
  awaitEnd(id: string, signal: AbortSignal): Promise<ChildEnd>;
}

/** The child could not be started: another attempt would be refused the same way. */
export class ChildRefusedError extends StepFailedError {
  constructor(message: string) {
    super(message, { retryable: false });
    this.name = 'ChildRefusedError';
  }
}

/** The child ended otherwise than SUCCESS; caught by the error type `child-failed`. */
export class ChildFailedError extends StepFailedError {
  readonly executionId: string;
  readonly status: string;

  constructor(executionId: string, status: string, error: string | undefined) {
    super(`child execution ${executionId} ended ${status}${error !== undefined ? `: ${error}` : ''}`, { retryable: false });
    this.name = 'ChildFailedError';
    this.executionId = executionId;
    this.status = status;
  }
}

/** A child's wait paused so that its run is suspended: not a stop of the run, nor a reason to end the child. */
const PAUSED = 'child-wait-paused';

/**
 * How a child may be waited for durably: in the worker for `minimumMs` at most, then by a
 * suspension of the run; `timeoutAtMs` is when the step times out (recorded with its first
 * suspension, so that a run taken again keeps it).
 */
export interface DurableChildWait {
  readonly minimumMs: number;
  readonly timeoutAtMs: number;
  readonly timeoutMs: number;
  /** Whether the run was suspended waiting for this step's child before (its due time recorded). */
  readonly resumed: boolean;
}

/**
 * Carries out a `start-child` command (step-command.ts) for the step at `address`: accepts the
 * child, or finds the one accepted for that address already (a resumed run), and waits for its end.
 * With `durable`, a child not ended within `minimumMs` makes the step ask for the run's suspension
 * until the child ends (suspendForChild), freeing its worker; the step runs again then and finds
 * the same child ended. At `timeoutAtMs` the wait times out as an in-process one does: the child is
 * terminated and the step fails with StepTimeoutError.
 */
export async function runChild(
  command: { readonly choreo: string; readonly inputs: Readonly<Record<string, string>> },
  children: ChildRuns | undefined,
  address: string,
  signal: AbortSignal,
  durable?: DurableChildWait,
): Promise<unknown> {
  if (children === undefined) throw new ChildRefusedError('sub-Choreos run only on a worker');
  const { id } = await children.start({ choreo: command.choreo, inputs: { ...command.inputs }, address, ...(durable?.resumed ? { resumed: true } : {}) });
  if (signal.aborted) throw new StepAbortedError(signal.reason);
  const ended = durable === undefined ? await children.awaitEnd(id, signal) : await awaitDurably(children, id, signal, durable);
  if (ended === undefined) return suspendForChild(durable?.timeoutAtMs ?? Number.POSITIVE_INFINITY, id);
  if (ended.status !== 'SUCCESS') throw new ChildFailedError(id, ended.status, ended.error);
  return { executionId: id, status: ended.status, outputs: ended.outputs };
}

/** The child's end if it comes within the wait's bound in the worker; undefined when the run is to be suspended. */
async function awaitDurably(children: ChildRuns, id: string, signal: AbortSignal, durable: DurableChildWait): Promise<ChildEnd | undefined> {
  const untilTimeout = durable.timeoutAtMs - Date.now();
  // Taken again while its child runs on (another child's end woke a block, or the periodic
  // re-check): the end is read once and, not there, the run is suspended again at once rather
  // than holding a worker for the whole bound.
  const inWorkerMs = durable.resumed ? 0 : durable.minimumMs;
  const bound = new AbortController();
  // Timing out aborts with the step's own error, so that the child is terminated with the step.
  const timer = setTimeout(
    () => bound.abort(untilTimeout <= inWorkerMs ? new StepTimeoutError(durable.timeoutMs) : PAUSED),
    Math.max(0, Math.min(untilTimeout, inWorkerMs)),
  );
  try {
    return await children.awaitEnd(id, AbortSignal.any([signal, bound.signal]));
  } catch (error) {
    if (signal.aborted || !bound.signal.aborted) throw error;
    if (bound.signal.reason === PAUSED) return undefined;
    throw bound.signal.reason;
  } finally {
    clearTimeout(timer);
  }
}
