import {
  DEFAULT_STEP_TIMEOUT_MS,
  compileDefinition,
  errorMessage,
  evaluateOutputs,
  evaluateValue,
  exceedsJsonLength,
  ExpressionError,
  isRetryable,
  jsonLength,
  MissingTemplateValueError,
  StepTimeoutError,
} from '@ces/choreos';
import type { ChoreoDefinition, CompiledStep, StepKind, StepLibrary, TemplateContext } from '@ces/choreos';

/**
 * Why a run stopped before its last step, each reason by its name; the caller's hooks (or the
 * signal's abort reason) give it, and the run comes back with it unchanged:
 * - `termination-requested`: someone asked for it to stop (it ends TERMINATED_MANUALLY);
 * - `time-limit`: it is past its deadline (it ends TERMINATED_LIMIT);
 * - `shutdown`: the process is stopping (it is handed back, to be resumed elsewhere);
 * - `not-running`: its record refused the checkpoint, the execution has ended (terminated, say);
 * - `superseded`: its record refused the checkpoint, another worker has taken the execution;
 * - `lock-lost`: the worker cannot tell that it still holds the run's job, which may go to another.
 */
export type StopReason = 'termination-requested' | 'time-limit' | 'shutdown' | 'not-running' | 'superseded' | 'lock-lost';

/** A run's progress after its completed steps: what is stored so that it can resume there. */
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

const STOP_REASONS: ReadonlySet<unknown> = new Set<StopReason>(['termination-requested', 'time-limit', 'shutdown', 'not-running', 'superseded', 'lock-lost']);

/** The reason a signal was aborted with; any other abort is taken as a request to terminate. */
export function stopReasonOf(signal: AbortSignal): StopReason {
  return STOP_REASONS.has(signal.reason) ? (signal.reason as StopReason) : 'termination-requested';
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
    outputs: {},
  };
  try {
    checkpoint.outputs = await evaluateOutputs(definition, { inputs, results, completedSteps: nextStep });
  } catch (error) {
    if (error instanceof ExpressionError) return { kind: 'failed', error: error.message, checkpoint };
    throw error;
  }

  for (let index = nextStep; index < compiled.steps.length; index++) {
    const stopBefore = await hooks.beforeStep(index);
    if (stopBefore !== undefined) return { kind: 'stopped', reason: stopBefore, checkpoint };
    if (signal?.aborted === true) return { kind: 'stopped', reason: stopReasonOf(signal), checkpoint };

    const step = compiled.steps[index] as CompiledStep;
    const started = performance.now();
    const outcome = await runStep(step, options.steps.get(step.kind), { inputs, results, completedSteps: index }, signal);
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
    let outputs: Record<string, string>;
    try {
      outputs = await evaluateOutputs(definition, { inputs, results: nextResults, completedSteps: index + 1 });
    } catch (error) {
      if (error instanceof ExpressionError) return { kind: 'failed', error: `${step.id}: ${error.message}`, checkpoint };
      throw error;
    }
    if (exceedsJsonLength(outputs, limits.maxOutputsChars)) {
      return { kind: 'failed', error: `${step.id}: the outputs would be longer than ${limits.maxOutputsChars} characters`, checkpoint };
    }
    results = nextResults;
    resultsChars = nextResultsChars;
    nextStep = index + 1;
    checkpoint = { nextStep, results, outputs };
    // Honoured after the last step too: a termination the API already acknowledged must not turn
    // into a success (the checkpoint then shows every step completed).
    const stopAfter = await hooks.afterStep(checkpoint);
    if (stopAfter !== undefined) return { kind: 'stopped', reason: stopAfter, checkpoint };
  }
  return { kind: 'completed', checkpoint };
}

async function runStep(step: CompiledStep, kind: StepKind | undefined, context: TemplateContext, signal: AbortSignal | undefined): Promise<StepOutcome> {
  if (kind === undefined) return { type: 'failed', message: `unknown step kind "${step.kind}"` };
  let rendered: unknown;
  try {
    rendered = await evaluateValue(step.args, context);
  } catch (error) {
    if (error instanceof MissingTemplateValueError || error instanceof ExpressionError) return { type: 'failed', message: error.message };
    throw error;
  }
  const parsed = kind.argsSchema.safeParse(rendered);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${['args', ...issue.path].join('.')}: ${issue.message}`);
    return { type: 'failed', message: `invalid arguments: ${issues.join('; ')}` };
  }

  for (let attempt = 1; ; attempt++) {
    try {
      return { type: 'ok', value: await attemptStep(kind, parsed.data, step.timeoutMs ?? kind.defaultTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS, signal) };
    } catch (error) {
      if (signal?.aborted === true) return { type: 'stopped', reason: stopReasonOf(signal) };
      if (attempt >= step.attempts || !isRetryable(error)) return { type: 'failed', message: errorMessage(error) };
    }
    const backoff = step.backoffMs * 2 ** (attempt - 1);
    if (backoff > 0 && !(await pause(backoff, signal))) return { type: 'stopped', reason: stopReasonOf(signal as AbortSignal) };
  }
}

/** One attempt, bounded by the step's timeout whether or not the step honours its signal. */
async function attemptStep(kind: StepKind, args: unknown, timeoutMs: number, signal: AbortSignal | undefined): Promise<unknown> {
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
    return await Promise.race([kind.run(args, { signal: controller.signal }), timeout]);
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
