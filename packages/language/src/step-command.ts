/**
 * What a step may return instead of its result: a command for the interpreter to carry out.
 *
 * - `suspend`: a step whose work is to wait, when its run can be suspended
 *   (StepContext.suspension): the run is stored and its worker freed until `untilMs`, then the step
 *   runs again and completes. Waiting for a call back, `callback` holds the token its URL carries
 *   (recorded, and registered by the worker so that a request to the URL wakes the run) and the
 *   step's result so far (its URL), which the outputs computed while the run waits see. Waiting
 *   for a child execution, `child` is its id: the run is due at `untilMs` (the step's timeout) or
 *   as soon as the child ends, whichever comes first.
 * - `start-child`: run Choreo `choreo` as a child execution with `inputs` and wait for its end; the
 *   child's end is the step's (`{ executionId, status, outputs }`, or ChildFailedError).
 */
export type StepCommand =
  | {
      readonly type: 'suspend';
      readonly untilMs: number;
      readonly callback?: { readonly token: string; readonly partial: unknown };
      readonly child?: string;
    }
  | { readonly type: 'start-child'; readonly choreo: string; readonly inputs: Readonly<Record<string, string>> };

/** Marks a command among a step's return values: no JSON result can carry a symbol key. */
const COMMAND = Symbol('step command');

/** The value a step returns to ask for its run to be suspended until `untilMs`. */
export function suspendRun(untilMs: number, callback?: { token: string; partial: unknown }): unknown {
  const command: StepCommand = { type: 'suspend', untilMs, ...(callback !== undefined ? { callback } : {}) };
  return { [COMMAND]: command };
}

/** The value a step's child run returns to suspend its run until child `executionId` ends, or `untilMs` at the latest. */
export function suspendForChild(untilMs: number, executionId: string): unknown {
  const command: StepCommand = { type: 'suspend', untilMs, child: executionId };
  return { [COMMAND]: command };
}

/** The value a step returns to run another Choreo as its child and end with it. */
export function startChild(choreo: string, inputs: Readonly<Record<string, string>>): unknown {
  const command: StepCommand = { type: 'start-child', choreo, inputs };
  return { [COMMAND]: command };
}

/** The command a step returned, if what it returned is one rather than a result. */
export function stepCommandOf(value: unknown): StepCommand | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  return (value as { [COMMAND]?: StepCommand })[COMMAND];
}
