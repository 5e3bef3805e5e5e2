import {
  DEFAULT_STEP_TIMEOUT_MS,
  compileDefinition,
  errorMessage,
  exceedsJsonLength,
  isRetryable,
  jsonLength,
  MissingTemplateValueError,
  renderOutputs,
  renderValue,
  StepTimeoutError,
} from '@ces/choreos';
import type { AccountState, ChoreoDefinition, CompiledStep, StepContext, StepKind, StepLibrary, TemplateContext } from '@ces/choreos';

export type StopReason = 'cancelled' | 'time-limit' | 'shutdown';

export interface Checkpoint {
  nextStep: number;
  results: Record<string, unknown>;
  outputs: Record<string, string>;
}

export interface EngineHooks {
  /** Before each step (including the first); returning a reason stops the run without running that step. */
  beforeStep(index: number): StopReason | undefined | Promise<StopReason | undefined>;
  /** After each completed step, with the checkpoint to persist atomically; may return a reason to stop now. */
  afterStep(checkpoint: Checkpoint): Promise<StopReason | undefined>;
}

export type RunOutcome =
  | { kind: 'completed'; checkpoint: Checkpoint }
  | { kind: 'failed'; error: string; checkpoint: Checkpoint }
  | { kind: 'stopped'; reason: StopReason; checkpoint: Checkpoint };

export interface StepEndEvent {
  index: number;
  id: string;
  kind: string;
  durationMs: number;
  ok: boolean;
}

export interface RunChoreoOptions {
  definition: ChoreoDefinition;
  /** Already bound (bindInputs). */
  inputs: Record<string, string>;
  steps: StepLibrary;
  /** Continue after the last completed step. */
  resumeFrom?: Checkpoint;
  hooks: EngineHooks;
  /** Aborting interrupts a wait step mid-step; abort with a StopReason as `reason`. */
  signal?: AbortSignal;
  /** The state of the run's account, handed to every step as it is (StepContext `account`). */
  account?: AccountState;
  /** For metrics. */
  onStepEnd?: (event: StepEndEvent) => void;
  /** Sizes a run may reach; DEFAULT_RUN_LIMITS when absent. */
  limits?: RunLimits;
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
   * Longest set of all steps' results so far, in characters of JSON: every checkpoint writes them
   * again, and past a few hundred megabytes they no longer fit in one string at all.
   */
  maxResultsChars: number;
}

export const DEFAULT_RUN_LIMITS: RunLimits = { maxStepResultChars: 16 * 1024 * 1024, maxOutputsChars: 16 * 1024 * 1024, maxResultsChars: 32 * 1024 * 1024 };

const STOP_REASONS: ReadonlySet<unknown> = new Set<StopReason>(['cancelled', 'time-limit', 'shutdown']);

export function stopReasonOf(signal: AbortSignal): StopReason {
  return STOP_REASONS.has(signal.reason) ? (signal.reason as StopReason) : 'cancelled';
}

type StepOutcome = { type: 'ok'; value: unknown } | { type: 'failed'; message: string } | { type: 'stopped'; reason: StopReason };

/**
 * Runs the steps of a definition in order, from `resumeFrom.nextStep`. Knows nothing of queues or
 * storage: the caller persists each checkpoint in `afterStep` and decides about stopping in the hooks.
 */
export async function runChoreo(options: RunChoreoOptions): Promise<RunOutcome> {
  const { definition, inputs, hooks, signal, onStepEnd } = options;
  const limits = options.limits ?? DEFAULT_RUN_LIMITS;
  const compiled = compileDefinition(definition);
  let nextStep = options.resumeFrom?.nextStep ?? 0;
  let results: Record<string, unknown> = { ...options.resumeFrom?.results };
  // Kept as a running total: measuring all results again after every step would grow with the
  // square of their number.
  let resultsChars = jsonLength(results, limits.maxResultsChars);
  let checkpoint: Checkpoint = {
    nextStep,
    results,
    outputs: renderOutputs(definition, { inputs, results, completedSteps: nextStep }),
  };

  for (let index = nextStep; index < compiled.steps.length; index++) {
    const stopBefore = await hooks.beforeStep(index);
    if (stopBefore !== undefined) return { kind: 'stopped', reason: stopBefore, checkpoint };
    if (signal?.aborted === true) return { kind: 'stopped', reason: stopReasonOf(signal), checkpoint };

    const step = compiled.steps[index] as CompiledStep;
    const started = performance.now();
    const outcome = await runStep(step, options.steps.get(step.kind), { inputs, results, completedSteps: index }, signal, options.account);
    onStepEnd?.({ index, id: step.id, kind: step.kind, durationMs: performance.now() - started, ok: outcome.type === 'ok' });
    if (outcome.type === 'failed') return { kind: 'failed', error: `${step.id}: ${outcome.message}`, checkpoint };
    if (outcome.type === 'stopped') return { kind: 'stopped', reason: outcome.reason, checkpoint };

    const resultChars = jsonLength(outcome.value, limits.maxStepResultChars);
    if (resultChars > limits.maxStepResultChars) {
      return { kind: 'failed', error: `${step.id}: the result is longer than ${limits.maxStepResultChars} characters`, checkpoint };
    }
    // Fresh objects for every checkpoint: the hook may still be persisting the previous one.
    const nextResults = { ...results, [step.id]: outcome.value };
    // The key, its quotes, the colon and a comma; a step run again (a resumed run) replaces its
    // earlier result, which is not subtracted: the total errs long, never short.
    const nextResultsChars = resultsChars + jsonLength(step.id, Number.MAX_SAFE_INTEGER) + 2 + resultChars;
    if (nextResultsChars > limits.maxResultsChars) {
      return { kind: 'failed', error: `${step.id}: the results of the steps so far would be longer than ${limits.maxResultsChars} characters`, checkpoint };
    }
    const outputs = renderOutputs(definition, { inputs, results: nextResults, completedSteps: index + 1 });
    if (exceedsJsonLength(outputs, limits.maxOutputsChars)) {
      return { kind: 'failed', error: `${step.id}: the outputs would be longer than ${limits.maxOutputsChars} characters`, checkpoint };
    }
    results = nextResults;
    resultsChars = nextResultsChars;
    nextStep = index + 1;
    checkpoint = { nextStep, results, outputs };
    // Honoured after the last step too: a cancellation the API already acknowledged must not turn
    // into a success (the checkpoint then shows every step completed).
    const stopAfter = await hooks.afterStep(checkpoint);
    if (stopAfter !== undefined) return { kind: 'stopped', reason: stopAfter, checkpoint };
  }
  return { kind: 'completed', checkpoint };
}

async function runStep(
  step: CompiledStep,
  kind: StepKind | undefined,
  context: TemplateContext,
  signal: AbortSignal | undefined,
  account: AccountState | undefined,
): Promise<StepOutcome> {
  if (kind === undefined) return { type: 'failed', message: `unknown step kind "${step.kind}"` };
  let rendered: unknown;
  try {
    rendered = renderValue(step.args, context);
  } catch (error) {
    if (error instanceof MissingTemplateValueError) return { type: 'failed', message: error.message };
    throw error;
  }
  const parsed = kind.argsSchema.safeParse(rendered);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${['args', ...issue.path].join('.')}: ${issue.message}`);
    return { type: 'failed', message: `invalid arguments: ${issues.join('; ')}` };
  }

  for (let attempt = 1; ; attempt++) {
    try {
      return { type: 'ok', value: await attemptStep(kind, parsed.data, step.timeoutMs ?? kind.defaultTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS, signal, account) };
    } catch (error) {
      if (signal?.aborted === true) return { type: 'stopped', reason: stopReasonOf(signal) };
      if (attempt >= step.attempts || !isRetryable(error)) return { type: 'failed', message: errorMessage(error) };
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
  signal: AbortSignal | undefined,
  account: AccountState | undefined,
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
    const stepContext: StepContext = account ? { signal: controller.signal, account } : { signal: controller.signal };
    return await Promise.race([kind.run(args, stepContext), timeout]);
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
