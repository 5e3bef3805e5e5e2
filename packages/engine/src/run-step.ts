import {
  ChildFailedError,
  ChoreoFailError,
  DEFAULT_STEP_TIMEOUT_MS,
  EgressRefusedError,
  errorMessage,
  evaluateValue,
  ExpressionError,
  InvalidStepInputError,
  isRetryable,
  MissingTemplateValueError,
  StepTimeoutError,
} from '@ces/choreos';
import type { AccountState, ChildRuns, CompiledStep, ErrorType, StepKind, TemplateContext } from '@ces/choreos';
import { stopReasonOf } from './stop-reason.ts';
import type { StopReason } from './stop-reason.ts';

export type StepOutcome = { type: 'ok'; value: unknown } | { type: 'failed'; message: string; errorType: ErrorType } | { type: 'stopped'; reason: StopReason };

/** The type a `catch` selects a failure by. */
export function errorTypeOf(error: unknown): ErrorType {
  if (error instanceof StepTimeoutError) return 'timeout';
  if (error instanceof EgressRefusedError) return 'egress-refused';
  if (error instanceof ChoreoFailError) return 'fail';
  if (error instanceof ChildFailedError) return 'child-failed';
  if (error instanceof InvalidStepInputError || error instanceof MissingTemplateValueError || error instanceof ExpressionError) return 'invalid';
  return 'error';
}

/** Where a step runs: its address in the run, and what the run gives its steps beyond the signal. */
export interface StepPlace {
  address: string;
  childRuns: ChildRuns | undefined;
  /** The state of the run's account, handed to the step as it is (StepContext `account`). */
  account: AccountState | undefined;
}

/** Runs one step of a kind: its arguments evaluated and validated, then its attempts. */
export async function runStep(
  step: CompiledStep,
  kind: StepKind | undefined,
  context: TemplateContext,
  signal: AbortSignal | undefined,
  place: StepPlace,
): Promise<StepOutcome> {
  if (kind === undefined) return { type: 'failed', message: `unknown step kind "${step.kind}"`, errorType: 'invalid' };
  let rendered: unknown;
  try {
    rendered = await evaluateValue(step.args, context);
  } catch (error) {
    if (error instanceof MissingTemplateValueError || error instanceof ExpressionError) return { type: 'failed', message: error.message, errorType: 'invalid' };
    throw error;
  }
  const parsed = kind.argsSchema.safeParse(rendered);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${['args', ...issue.path].join('.')}: ${issue.message}`);
    return { type: 'failed', message: `invalid arguments: ${issues.join('; ')}`, errorType: 'invalid' };
  }

  for (let attempt = 1; ; attempt++) {
    try {
      return { type: 'ok', value: await attemptStep(kind, parsed.data, step.timeoutMs ?? kind.defaultTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS, signal, place) };
    } catch (error) {
      if (signal?.aborted === true) return { type: 'stopped', reason: stopReasonOf(signal) };
      if (attempt >= step.attempts || !isRetryable(error)) return { type: 'failed', message: errorMessage(error), errorType: errorTypeOf(error) };
    }
    const backoff = step.backoffMs * 2 ** (attempt - 1);
    if (backoff > 0 && !(await pause(backoff, signal))) return { type: 'stopped', reason: stopReasonOf(signal as AbortSignal) };
  }
}

/** One attempt, bounded by the step's timeout whether or not the step honours its signal. */
async function attemptStep(kind: StepKind, args: unknown, timeoutMs: number, signal: AbortSignal | undefined, place: StepPlace): Promise<unknown> {
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
    return await Promise.race([
      kind.run(args, {
        signal: controller.signal,
        address: place.address,
        ...(place.childRuns !== undefined ? { childRuns: place.childRuns } : {}),
        ...(place.account !== undefined ? { account: place.account } : {}),
      }),
      timeout,
    ]);
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
