/**
 * Addresses of a run's progress: where a step or a loop iteration stands in its run, and the
 * entries kept beside a step's result. They are built and read here only — by the engine, the
 * worker and the store alike; Lua scripts are handed the addresses they need, whole.
 *
 * - `fetch`: a step's result (a step is named by its id, unique across its Choreo);
 * - `pages[3]`: iteration 3 of loop `pages`; a step inside it is `pages[3].fetch`, and loops nest
 *   (`a[1].b[2].c`);
 * - `<address>!`: how the step (or block) at `address` failed, so that a `catch` takes it again;
 * - `<address>@`: when the wait of the step at `address` is due (epoch ms);
 * - `<address>@token`: the token of its wait for a call back;
 * - `<address>@callback`: the call back's body, written by whoever receives it;
 * - `par{1}`: branch 1 of parallel `par` completed (a marker: the branch's steps keep their own
 *   entries), so that a redrive reuses that branch and runs again the branches that did not complete.
 */

/** The address of step (or block) `id` inside the iteration at `within` ('' at the top level). */
export function stepAddress(within: string, id: string): string {
  return within === '' ? id : `${within}.${id}`;
}

/** The address of iteration `index` of loop `loopId` inside the iteration at `within` ('' at the top level). */
export function iterationAddress(within: string, loopId: string, index: number): string {
  return `${stepAddress(within, loopId)}[${index}]`;
}

/** The marker entry of branch `index` of parallel `parallelId` inside the iteration at `within`. */
export function branchAddress(within: string, parallelId: string, index: number): string {
  return `${stepAddress(within, parallelId)}{${index}}`;
}

/** Whether the entry at `address` belongs to something inside a loop's iteration (`pages[3].fetch`, not `pages[3]`). */
export function isInsideAnyIteration(address: string): boolean {
  return address.includes('].');
}

/** Whether the entry at `address` belongs to a step inside the iteration at `iteration`. */
export function isInsideIteration(address: string, iteration: string): boolean {
  return address.length > iteration.length + 1 && address.startsWith(iteration) && address[iteration.length] === '.';
}

/** The entry holding how the step at `address` failed. */
export function failureAddress(address: string): string {
  return `${address}!`;
}

/** The entry holding when the wait of the step at `address` is due. */
export function wakeAddress(address: string): string {
  return `${address}@`;
}

/** The entry holding the token of the step's wait for a call back. */
export function callbackTokenAddress(address: string): string {
  return `${address}@token`;
}

/** The entry a call back's body is written to. */
export function callbackAddress(address: string): string {
  return `${address}@callback`;
}

const LEADING_ID = /^[A-Za-z_][A-Za-z0-9_-]*/;

/**
 * The id an address starts with: a top-level step's or block's, or, inside a block that is not a
 * loop, its step's own (`fetch` of `fetch@`, `pages` of `pages[3].fetch`, `par` of `par{1}`); ''
 * for what no address built here looks like.
 */
export function leadingId(address: string): string {
  return LEADING_ID.exec(address)?.[0] ?? '';
}

/** What an entry's address says: what it holds, of which step or iteration, and that one's id. */
export interface ProgressAddress {
  readonly holds: 'result' | 'failure' | 'wake' | 'callback-token' | 'callback';
  /** The step or iteration the entry is of (`pages[3].fetch`, `pages[3]`). */
  readonly of: string;
  /** The id of that step, or of that iteration's loop. */
  readonly id: string;
  /** For an iteration, its index. */
  readonly iteration?: number;
}

const SUFFIXES: readonly [string, ProgressAddress['holds']][] = [
  ['@callback', 'callback'],
  ['@token', 'callback-token'],
  ['@', 'wake'],
  ['!', 'failure'],
];
/** The last step of an address: an id, and an iteration's index when it is one. */
const LAST_STEP = /(?:^|\.)([A-Za-z_][A-Za-z0-9_-]*)(?:\[(\d+)\])?$/;

/** Reads an entry's address; undefined for what no address built here looks like. */
export function parseProgressAddress(address: string): ProgressAddress | undefined {
  let holds: ProgressAddress['holds'] = 'result';
  let of = address;
  for (const [suffix, kind] of SUFFIXES) {
    if (address.endsWith(suffix)) {
      holds = kind;
      of = address.slice(0, -suffix.length);
      break;
    }
  }
  const last = LAST_STEP.exec(of);
  if (last === null) return undefined;
  const [, id, index] = last;
  if (id === undefined) return undefined;
  return { holds, of, id, ...(index !== undefined ? { iteration: Number(index) } : {}) };
}

/**
 * The address of the loop whose iteration `iteration` holds step `id` at `address`
 * (`each` for `each[3].post`), or undefined when the step is not directly inside such an iteration.
 */
export function enclosingLoopAddress(address: string, id: string, iteration: number): string | undefined {
  const suffix = `[${iteration}].${id}`;
  if (!address.endsWith(suffix)) return undefined;
  const loop = address.slice(0, address.length - suffix.length);
  return loop === '' ? undefined : loop;
}

/** The address of step `id` in iteration `iteration` of the loop at `loop`: enclosingLoopAddress's inverse. */
export function loopStepAddress(loop: string, iteration: number, id: string): string {
  return stepAddress(iterationAddress('', loop, iteration), id);
}
