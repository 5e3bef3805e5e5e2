import type { z } from 'zod';
import type { AccountState } from './account-state.ts';

export interface StepContext {
  /**
   * Aborted when the run is cancelled, reaches its time limit, the worker shuts down, or the step
   * passes its own `timeoutMs` (reason: StepTimeoutError). Only steps that lose nothing when
   * interrupted honour it mid-step.
   */
  readonly signal: AbortSignal;
  /** Where the step is in its run (`fetch`, `pages[3].fetch`): the same on every resume. */
  readonly address?: string;
  /**
   * The state the run's account keeps (its stored tokens), for the steps that work on it; absent
   * where runs have none (documentation, tests of other kinds), and those steps then fail.
   */
  readonly account?: AccountState;
  /**
   * Present when the run can be suspended: its state stored and its worker freed while it waits. A
   * step whose work is to wait then returns suspendRun (step-command.ts) for a wait of at least `minimumMs`
   * rather than wait in-process.
   */
  readonly suspension?: StepSuspension;
  /**
   * Told by a step whose work is to wait, as it begins a wait in the worker (one too short to
   * suspend the run for): the run's events say what it waits for and until when. A promise it
   * returns is waited for before the wait starts.
   */
  readonly waitBegins?: (untilMs: number) => void | Promise<void>;
}

export interface StepSuspension {
  /** When this step's wait was due, if an earlier take of the run suspended it: the wait ends then, not later. */
  readonly wakeAtMs: number | undefined;
  /** Shortest wait worth a suspension; shorter ones wait in-process. */
  readonly minimumMs: number;
  /** The token of this step's wait for a call back, if an earlier take suspended it for one. */
  readonly callbackToken: string | undefined;
  /** The call back that came for it: the request's body (parsed JSON, else its text). */
  readonly delivered: { readonly body: unknown } | undefined;
  /** The public URL a call back with `token` is made to; undefined when this service has none. */
  callbackUrl(token: string): string | undefined;
}

export interface StepKind {
  readonly kind: string;
  readonly description: string;
  /** Validates the rendered arguments; what it outputs is what `run` receives. */
  readonly argsSchema: z.ZodType;
  /** An example `args` object, for the documentation. */
  readonly example?: Readonly<Record<string, unknown>>;
  /**
   * Pure: its result depends on its arguments alone (no I/O, no clock, no randomness) and nothing
   * outside the run changes when it runs, so running it again — after a crash, or for a run that
   * has meanwhile ended — cannot be seen outside the run. A run therefore stores the results of
   * pure steps with its next write rather than one write each, and a Choreo made only of pure
   * steps may run without a take (isInstantChoreo). Absent means false.
   */
  readonly pure?: boolean;
  /**
   * Pure (as above) for a run in which each of these arguments is an input's template whose input
   * is empty: the kind then works on its arguments alone, and otherwise reaches out (a `url` to
   * fetch). Without `pure`.
   */
  readonly pureUnless?: readonly string[];
  /**
   * Timeout of a step of this kind that sets none, instead of the definitions' default: a kind
   * whose work is to wait may wait longer than that (the run's time limit still applies).
   */
  readonly defaultTimeoutMs?: number;
  /**
   * Its result may hold a secret (a token, a token response): whoever stores the result while the
   * run goes on (a worker's checkpoints, progress inside a block) keeps it sealed. Absent means false.
   */
  readonly secretResult?: boolean;
  run(args: unknown, context: StepContext): Promise<unknown>;
}

export interface StepLibrary {
  get(kind: string): StepKind | undefined;
  list(): readonly StepKind[];
}

/** Typed helper: `run` sees the schema's output type, the library sees a plain StepKind. */
export function defineStepKind<Schema extends z.ZodType>(spec: {
  kind: string;
  description: string;
  argsSchema: Schema;
  example?: Readonly<Record<string, unknown>>;
  pure?: boolean;
  pureUnless?: readonly string[];
  defaultTimeoutMs?: number;
  secretResult?: boolean;
  run(args: z.output<Schema>, context: StepContext): Promise<unknown>;
}): StepKind {
  return spec as StepKind;
}

export function stepLibraryFrom(kinds: readonly StepKind[]): StepLibrary {
  const byKind = new Map<string, StepKind>();
  for (const kind of kinds) {
    if (byKind.has(kind.kind)) throw new Error(`step kind ${kind.kind} is defined twice`);
    byKind.set(kind.kind, kind);
  }
  const sorted = [...byKind.values()].sort((a, b) => a.kind.localeCompare(b.kind));
  return { get: (kind) => byKind.get(kind), list: () => sorted };
}
