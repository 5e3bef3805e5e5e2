/**
 * An execution's step history: one event per attempt of each step that ran, in the order they
 * were written, kept in a list beside the record (keys.ts `executionSteps`) and expiring with it.
 */

/** One attempt of one step. */
export interface StepEvent {
  /** The step's id. */
  id: string;
  /** Where it ran: its id at the top level; inside a block its address, such as `each[3].post`. */
  address: string;
  /** Inside a loop: the index of the innermost iteration. */
  iteration?: number;
  /** 1 for the first attempt; a retry adds one. */
  attempt: number;
  /** Epoch milliseconds. */
  start: number;
  end: number;
  /** Milliseconds, fractional. */
  durationMs: number;
  /** The worker that ran it. */
  host: string;
  outcome: 'succeeded' | 'failed' | 'stopped';
  error?: string;
}

/**
 * The bound of one execution's history: past `first + last` events, the first `first` and the
 * last `last` are kept, and those between are counted in their place (step-history.lua).
 */
export interface StepHistoryBounds {
  first: number;
  last: number;
}

export const DEFAULT_STEP_HISTORY_BOUNDS: StepHistoryBounds = { first: 100, last: 900 };

/** A history as read: its events, and, when some were dropped, how many and where. */
export interface StepHistory {
  events: StepEvent[];
  /** Events dropped between `events[droppedAfter - 1]` and `events[droppedAfter]`. */
  dropped?: { count: number; after: number };
}

/** An error is kept to this many characters: the history is bounded in size, not only in count. */
const MAX_ERROR_CHARS = 1000;

export function encodeStepEvent(event: StepEvent): string {
  const error = event.error !== undefined && event.error.length > MAX_ERROR_CHARS ? `${event.error.slice(0, MAX_ERROR_CHARS)}…` : event.error;
  // StepEvent has no `dropped` key: the script tells its marker of dropped events by that first key.
  return JSON.stringify({ ...event, durationMs: Math.round(event.durationMs * 1000) / 1000, ...(error !== undefined ? { error } : {}) });
}

export function decodeStepHistory(stored: readonly string[]): StepHistory {
  const events: StepEvent[] = [];
  let dropped: StepHistory['dropped'];
  for (const json of stored) {
    const value = JSON.parse(json) as StepEvent | { dropped: number };
    if ('dropped' in value) dropped = { count: value.dropped, after: events.length };
    else events.push(value);
  }
  return dropped === undefined ? { events } : { events, dropped };
}
