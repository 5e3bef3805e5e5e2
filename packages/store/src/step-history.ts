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

const OUTCOMES = ['succeeded', 'failed', 'stopped'] as const;

/**
 * An event as stored: a JSON array rather than an object, since every retained execution keeps
 * its history in Redis (one step's event is about 70 bytes this way, 200 as an object):
 * `[id, address (0: the same as id), iteration (-1: none), attempt, start, end - start, durationMs,
 * host, outcome (index in OUTCOMES), error?]`. Never an object: the script tells its marker of
 * dropped events, `{"dropped":…}`, by its first characters.
 */
type StoredStepEvent = [string, string | 0, number, number, number, number, number, string, number, string?];

export function encodeStepEvent(event: StepEvent): string {
  const stored: StoredStepEvent = [
    event.id,
    event.address === event.id ? 0 : event.address,
    event.iteration ?? -1,
    event.attempt,
    event.start,
    event.end - event.start,
    Math.round(event.durationMs * 1000) / 1000,
    event.host,
    OUTCOMES.indexOf(event.outcome),
  ];
  if (event.error !== undefined) stored.push(event.error.length > MAX_ERROR_CHARS ? `${event.error.slice(0, MAX_ERROR_CHARS)}…` : event.error);
  return JSON.stringify(stored);
}

function decodeStepEvent(stored: StoredStepEvent): StepEvent {
  const [id, address, iteration, attempt, start, elapsed, durationMs, host, outcome, error] = stored;
  return {
    id,
    address: address === 0 ? id : address,
    ...(iteration >= 0 ? { iteration } : {}),
    attempt,
    start,
    end: start + elapsed,
    durationMs,
    host,
    outcome: OUTCOMES[outcome] ?? 'failed',
    ...(error !== undefined ? { error } : {}),
  };
}

/**
 * The history as stored: the list's entries, or the record's `history` field (a JSON array of
 * events, written by the end of a run that had written none before it).
 */
export function decodeStepHistory(stored: readonly string[], field?: string | null): StepHistory {
  if (field) return { events: (JSON.parse(field) as StoredStepEvent[]).map(decodeStepEvent) };
  const events: StepEvent[] = [];
  let dropped: StepHistory['dropped'];
  for (const json of stored) {
    const value = JSON.parse(json) as StoredStepEvent | { dropped: number };
    if (Array.isArray(value)) events.push(decodeStepEvent(value));
    else dropped = { count: value.dropped, after: events.length };
  }
  return dropped === undefined ? { events } : { events, dropped };
}
