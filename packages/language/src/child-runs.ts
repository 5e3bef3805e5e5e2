import { StepAbortedError, StepFailedError } from './step-errors.ts';

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
   * missing).
   */
  start(request: { choreo: string; inputs: Record<string, string>; address: string }): Promise<{ id: string }>;
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

/**
 * Carries out a `start-child` command (step-command.ts) for the step at `address`: accepts the
 * child, or finds the one accepted for that address already (a resumed run), and waits for its end.
 */
export async function runChild(
  command: { readonly choreo: string; readonly inputs: Readonly<Record<string, string>> },
  children: ChildRuns | undefined,
  address: string,
  signal: AbortSignal,
): Promise<unknown> {
  if (children === undefined) throw new ChildRefusedError('sub-Choreos run only on a worker');
  const { id } = await children.start({ choreo: command.choreo, inputs: { ...command.inputs }, address });
  if (signal.aborted) throw new StepAbortedError(signal.reason);
  const ended = await children.awaitEnd(id, signal);
  if (ended.status !== 'SUCCESS') throw new ChildFailedError(id, ended.status, ended.error);
  return { executionId: id, status: ended.status, outputs: ended.outputs };
}
