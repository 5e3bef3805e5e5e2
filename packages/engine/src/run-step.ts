import {
  type AccountState,
  ChildFailedError,
  type ChildRuns,
  ChoreoFailError,
  type CompiledStep,
  DEFAULT_STEP_TIMEOUT_MS,
  EgressRefusedError,
  errorMessage,
  type ErrorType,
  evaluateValue,
  ExpressionError,
  InvalidStepInputError,
  isRetryable,
  MissingTemplateValueError,
  runChild,
  type StepKind,
  stepCommandOf,
  type StepSuspension,
  StepTimeoutError,
  type TemplateContext,
} from '@ces/language';
import { stopReasonOf } from './stop-reason.ts';
import type { StopReason } from './stop-reason.ts';

/**
 * One attempt of a step, for its history: when it started and ended (epoch ms), how long it took
 * (ms, fractional) and how it came out. A step whose arguments could not be evaluated counts one
 * failed attempt that ran nothing.
 */
export interface StepAttempt {
  attempt: number;
  start: number;
  end: number;
  durationMs: number;
  outcome: 'succeeded' | 'failed' | 'stopped';
  error?: string;
}

export type StepOutcome =
  | { type: 'ok'; value: unknown }
  | { type: 'failed'; message: string; errorType: ErrorType }
  | { type: 'stopped'; reason: StopReason }
  /**
   * The step asked for the run to be suspended until `untilMs` (a durable wait); it runs again then.
   * Waiting for a child execution, `child` is its id: its end makes the run due sooner.
   */
  | { type: 'suspended'; untilMs: number; callback?: { token: string; partial: unknown }; child?: string };

/** The type a `catch` selects a failure by. */
export function errorTypeOf(error: unknown): ErrorType {
  if (error instanceof StepTimeoutError) return 'timeout';
  if (error instanceof EgressRefusedError) return 'egress-refused';
  if (error instanceof ChoreoFailError) return 'fail';
  if (error instanceof ChildFailedError) return 'child-failed';
  if (error instanceof InvalidStepInputError || error instanceof MissingTemplateValueError || error instanceof ExpressionError) return 'invalid';
  return 'error';
}

/**
 * Where a step runs: its address in the run, and what the run gives its steps beyond the signal.
 * With `suspension`, a step may ask for the run to be suspended instead of waiting in-process.
 */
export interface StepPlace {
  address: string;
  childRuns: ChildRuns | undefined;
  suspension?: StepSuspension | undefined;
  /** The state of the run's account, handed to the step as it is (StepContext `account`). */
  account: AccountState | undefined;
  /** StepContext `waitBegins`: a wait in the worker begins. */
  waitBegins?: ((untilMs: number) => void | Promise<void>) | undefined;
}

/**
 * Runs one step of a kind: its arguments evaluated and validated, then its attempts, each pushed
 * onto `attempts` when given (the step's history).
 */
export async function runStep(
  step: CompiledStep,
  kind: StepKind | undefined,
  context: TemplateContext,
  signal: AbortSignal | undefined,
  place: StepPlace,
  attempts?: StepAttempt[],
): Promise<StepOutcome> {
  const refused = (message: string): StepOutcome => {
    if (attempts !== undefined) {
      const now = Date.now();
      attempts.push({ attempt: 1, start: now, end: now, durationMs: 0, outcome: 'failed', error: message });
    }
    return { type: 'failed', message, errorType: 'invalid' };
  };
  if (kind === undefined) return refused(`unknown step kind "${step.kind}"`);
  let rendered: unknown;
  try {
    rendered = await evaluateValue(step.args, context);
  } catch (error) {
    if (error instanceof MissingTemplateValueError || error instanceof ExpressionError) return refused(error.message);
    throw error;
  }
  const parsed = kind.argsSchema.safeParse(rendered);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${['args', ...issue.path].join('.')}: ${issue.message}`);
    return refused(`invalid arguments: ${issues.join('; ')}`);
  }

  for (let attempt = 1; ; attempt++) {
    const start = Date.now();
    const started = performance.now();
    const ended = (outcome: StepAttempt['outcome'], error?: string) =>
      attempts?.push({ attempt, start, end: Date.now(), durationMs: performance.now() - started, outcome, ...(error !== undefined ? { error } : {}) });
    try {
      const value = await attemptStep(kind, parsed.data, step.timeoutMs ?? kind.defaultTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS, start, signal, place);
      // A command is not an outcome of the attempt: the step runs again once the command is carried out.
      const command = stepCommandOf(value);
      if (command?.type === 'suspend') {
        return {
          type: 'suspended',
          untilMs: command.untilMs,
          ...(command.callback !== undefined ? { callback: command.callback } : {}),
          ...(command.child !== undefined ? { child: command.child } : {}),
        };
      }
      ended('succeeded');
      return { type: 'ok', value };
    } catch (error) {
      if (signal?.aborted === true) {
        ended('stopped', errorMessage(error));
        return { type: 'stopped', reason: stopReasonOf(signal) };
      }
      ended('failed', errorMessage(error));
      if (attempt >= step.attempts || !isRetryable(error)) return { type: 'failed', message: errorMessage(error), errorType: errorTypeOf(error) };
    }
    const backoff = step.backoffMs * 2 ** (attempt - 1);
    if (backoff > 0 && !(await pause(backoff, signal))) return { type: 'stopped', reason: stopReasonOf(signal as AbortSignal) };
  }
}

/** One attempt, bounded by the step's timeout whether or not the step honours its signal. */
async function attemptStep(
  kind: StepKind,
  args: unknown,
  timeoutMs: number,
  start: number,
  signal: AbortSignal | undefined,
  place: StepPlace,
): Promise<unknown> {
  const controller = new AbortController();
  const forward = () => controller.abort(signal?.reason);
  if (signal !== undefined) {
    if (signal.aborted) forward();
    else signal.addEventListener('abort', forward, { once: true });
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new StepTimeoutError(timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    const attempt = async () => {
      const value = await kind.run(args, {
        signal: controller.signal,
        address: place.address,
        ...(place.suspension !== undefined ? { suspension: place.suspension } : {}),
        ...(place.account !== undefined ? { account: place.account } : {}),
        ...(place.waitBegins !== undefined ? { waitBegins: place.waitBegins } : {}),
      });
      // A child is part of its step's attempt: started and waited for under the same timeout and
      // signal. A run that may be suspended is, while its child runs on: the step times out when its
      // first attempt began plus its timeout (recorded as its wait's due time), however many takes.
      const command = stepCommandOf(value);
      if (command?.type === 'start-child') {
        const { suspension } = place;
        const durable = suspension && {
          minimumMs: suspension.minimumMs,
          timeoutAtMs: suspension.wakeAtMs ?? start + timeoutMs,
          timeoutMs,
          resumed: suspension.wakeAtMs !== undefined,
        };
        return runChild(command, place.childRuns, place.address, controller.signal, durable);
      }
      return value;
    };
    return await Promise.race([attempt(), timeout]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
  }
}

/** Resolves true after `ms`, or false as soon as the run is aborted. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted === true) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
