import { enclosingLoopAddress, loopStepAddress } from '@ces/language';
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
 * its history in Redis, and a loop writes one event per iteration:
 * `[id, address, iteration (-1: none), attempt, start, end - start, durationMs, host, outcome
 * (index in OUTCOMES), error?]`, where
 * - address is 0 when it is the id; inside a loop, where an address is always
 *   `<loop's address>[<iteration>].<id>`, the loop's address alone (`each` for `each[3].post`);
 *   otherwise the whole address, which then ends with `.<id>` (how the reader tells the two apart;
 *   events written before loop addresses were shortened are all of that form);
 * - start is epoch milliseconds or, below RELATIVE_START_LIMIT, milliseconds after the start of
 *   the event before it (negative when that one started later, as in a loop run in parallel);
 * - host is 0 when it is the host of the event before it.
 * Only the first event a worker writes for a run names its start and host in full. The marker of
 * dropped events keeps what the events after it need (step-history.lua): the host of the last
 * dropped event that named one, and the start of the last dropped event, as an event's is. A
 * loop's no-op step costs about 40 characters this way, 75 with everything written out, 200 as
 * an object. Never an object: the script tells its marker of dropped events, `{"dropped":…}`, by
 * its first characters.
 */
type StoredStepEvent = [string, string | 0, number, number, number, number, number, string | 0, number, string?];

/**
 * A stored start below this is relative to the start of the event before: 1e11 ms is three
 * years, longer than any run, and as an epoch it is in 1973, before any run.
 */
export const RELATIVE_START_LIMIT = 1e11;

/** The marker of the events dropped between the first and the last kept (step-history.lua). */
interface DroppedMarker {
  dropped: number;
  /** The host of the last dropped event; absent when they all had the host of the event before them. */
  host?: string;
  /** The start of the last dropped event, as an event's (absent in markers written before starts were relative). */
  start?: number;
}

/** What the writer knows of the event stored last before the ones it writes. */
export interface PreviousStepEvent {
  host: string;
  start: number;
}

function storedAddress(event: StepEvent): string | 0 {
  if (event.address === event.id) return 0;
  const loopAddress = event.iteration !== undefined ? enclosingLoopAddress(event.address, event.id, event.iteration) : undefined;
  if (loopAddress !== undefined && !loopAddress.endsWith(`.${event.id}`)) return loopAddress;
  return event.address;
}

function readAddress(id: string, stored: string | 0, iteration: number): string {
  if (stored === 0) return id;
  if (stored.endsWith(`.${id}`) || iteration < 0) return stored;
  return loopStepAddress(stored, iteration, id);
}

/**
 * Events as stored, in the order given. `previous` is the event stored last before them, when the
 * writer knows it for sure (it wrote that event itself): the first event is then written relative
 * to it as the others are to theirs.
 */
export function encodeStepEvents(events: readonly StepEvent[], previous?: PreviousStepEvent): string[] {
  let host = previous?.host;
  let start = previous?.start;
  return events.map((event) => {
    const sinceStart = start === undefined ? undefined : event.start - start;
    const stored: StoredStepEvent = [
      event.id,
      storedAddress(event),
      event.iteration ?? -1,
      event.attempt,
      sinceStart !== undefined && Math.abs(sinceStart) < RELATIVE_START_LIMIT ? sinceStart : event.start,
      event.end - event.start,
      Math.round(event.durationMs * 1000) / 1000,
      event.host === host ? 0 : event.host,
      OUTCOMES.indexOf(event.outcome),
    ];
    host = event.host;
    start = event.start;
    if (event.error !== undefined) stored.push(event.error.length > MAX_ERROR_CHARS ? `${event.error.slice(0, MAX_ERROR_CHARS)}…` : event.error);
    return JSON.stringify(stored);
  });
}

function decodeStepEvent(stored: StoredStepEvent, previous: PreviousStepEvent): StepEvent {
  const [id, address, iteration, attempt, storedStart, elapsed, durationMs, host, outcome, error] = stored;
  const start = absoluteStart(storedStart, previous.start);
  return {
    id,
    address: readAddress(id, address, iteration),
    ...(iteration >= 0 ? { iteration } : {}),
    attempt,
    start,
    end: start + elapsed,
    durationMs,
    host: host === 0 ? previous.host : host,
    outcome: OUTCOMES[outcome] ?? 'failed',
    ...(error !== undefined ? { error } : {}),
  };
}

/**
 * The history as stored: the list's entries, or the record's `history` field (a JSON array of
 * events, written by the end of a run that had written none before it).
 */
export function decodeStepHistory(stored: readonly string[], field?: string | null): StepHistory {
  // A history whose first event is relative to nothing (none should be) reads from 0 and ''.
  let previous: PreviousStepEvent = { host: '', start: 0 };
  const read = (value: StoredStepEvent) => {
    const event = decodeStepEvent(value, previous);
    previous = { host: event.host, start: event.start };
    return event;
  };
  if (field) return { events: (JSON.parse(field) as StoredStepEvent[]).map(read) };
  const events: StepEvent[] = [];
  let dropped: StepHistory['dropped'];
  for (const json of stored) {
    const value = JSON.parse(json) as StoredStepEvent | DroppedMarker;
    if (Array.isArray(value)) events.push(read(value));
    else {
      dropped = { count: value.dropped, after: events.length };
      previous = {
        host: value.host ?? previous.host,
        start: value.start === undefined ? previous.start : absoluteStart(value.start, previous.start),
      };
    }
  }
  return dropped === undefined ? { events } : { events, dropped };
}

function absoluteStart(stored: number, previousStart: number): number {
  return Math.abs(stored) < RELATIVE_START_LIMIT ? previousStart + stored : stored;
}
