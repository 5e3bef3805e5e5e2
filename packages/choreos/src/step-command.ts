/**
 * What a step may return instead of its result: a command for the interpreter to carry out. A
 * step whose work is to wait returns `suspend` when its run can be suspended
 * (StepContext.suspension): the run is stored and its worker freed until `untilMs`, then the step
 * runs again and completes. Waiting for a call back, `callback` holds the token its URL carries
 * (recorded, and registered by the worker so that a request to the URL wakes the run) and the
 * step's result so far (its URL), which the outputs computed while the run waits see.
 */
export type StepCommand = {
  readonly type: 'suspend';
  readonly untilMs: number;
  readonly callback?: { readonly token: string; readonly partial: unknown };
};

/** Marks a command among a step's return values: no JSON result can carry a symbol key. */
const COMMAND = Symbol('step command');

/** The value a step returns to ask for its run to be suspended until `untilMs`. */
export function suspendRun(untilMs: number, callback?: { token: string; partial: unknown }): unknown {
  const command: StepCommand = { type: 'suspend', untilMs, ...(callback !== undefined ? { callback } : {}) };
  return { [COMMAND]: command };
}

/** The command a step returned, if what it returned is one rather than a result. */
export function stepCommandOf(value: unknown): StepCommand | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  return (value as { [COMMAND]?: StepCommand })[COMMAND];
}
