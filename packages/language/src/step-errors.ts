/**
 * Errors a step may throw. The engine reads `retryable` to decide whether another attempt could
 * help (like BullMQ's UnrecoverableError, but without depending on BullMQ); anything thrown that
 * is not a StepFailedError counts as retryable, since it is most likely a transient fault.
 */
export class StepFailedError extends Error {
  readonly retryable: boolean;

  constructor(message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StepFailedError';
    this.retryable = options.retryable ?? true;
  }
}

/** Bad input data (malformed JSON, invalid arguments…): running again would fail the same way. */
export class InvalidStepInputError extends StepFailedError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, retryable: false });
    this.name = 'InvalidStepInputError';
  }
}

/** Thrown by the `control.fail` step: the Choreo itself decided to end the run. */
export class ChoreoFailError extends StepFailedError {
  constructor(message: string) {
    super(message, { retryable: false });
    this.name = 'ChoreoFailError';
  }
}

/** The HTTP egress policy refused a destination; another attempt would be refused too. */
export class EgressRefusedError extends StepFailedError {
  constructor(message: string) {
    super(message, { retryable: false });
    this.name = 'EgressRefusedError';
  }
}

/**
 * Abort reason the engine uses when a step runs past its `timeoutMs`. Steps that otherwise
 * ignore the signal (an HTTP request must not be cut short by a cancellation, since the far side
 * may already have acted) still stop on this one: the attempt is lost anyway.
 */
export class StepTimeoutError extends StepFailedError {
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`, { retryable: true });
    this.name = 'StepTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The abort reason of a step whose block ended without it: another branch of its `parallel`, or
 * another iteration of its `forEach`, failed, returned or stopped the loop. The run goes on (a
 * `catch` may take the block's failure), so what the step started on its own account must end
 * with it: a child execution it waits for is terminated.
 */
export const BLOCK_ENDED = 'block-ended';

/** Rejection of a step that honoured its AbortSignal mid-step; `reason` is the signal's reason. */
export class StepAbortedError extends Error {
  readonly reason: unknown;

  constructor(reason: unknown) {
    super(`step interrupted: ${describeReason(reason)}`);
    this.name = 'StepAbortedError';
    this.reason = reason;
  }
}

export function isRetryable(error: unknown): boolean {
  return !(error instanceof StepFailedError) || error.retryable;
}

/** Longest message a failure keeps: it becomes the execution's `lasterror`, and some quote input. */
const MAX_ERROR_MESSAGE_LENGTH = 1000;

export function errorMessage(error: unknown): string {
  return shorten(error instanceof Error ? error.message : typeof error === 'string' ? error : String(error), MAX_ERROR_MESSAGE_LENGTH);
}

/** `text` cut to `length` characters, marked as cut: messages that quote input must stay short. */
export function shorten(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length)}…`;
}

function describeReason(reason: unknown): string {
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error) return reason.message;
  return 'aborted';
}
