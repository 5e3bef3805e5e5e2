import type { Redis } from 'ioredis';
import type { KeySpace } from './keys.ts';

/**
 * An execution's run events: what a client watching the run is sent (GET …/events), kept in a
 * Redis Stream beside the record (keys.ts `executionEvents`), written by the same scripts that
 * write the progress and the end, so that an event exists exactly when what it tells is stored.
 * The events of one write share stream entries (run-events.lua), each event one field of its
 * entry: its type, and its data, the one line of JSON sent as it is. An event's id is its entry's
 * id and its place in the entry, `<ms>-<seq>-<index>`.
 */
export type RunEventType = 'step.started' | 'step.ended' | 'iteration.started' | 'iteration.ended' | 'wait.started' | 'child.started' | 'execution.ended';

export const RUN_EVENT_TYPES: readonly RunEventType[] = [
  'step.started',
  'step.ended',
  'iteration.started',
  'iteration.ended',
  'wait.started',
  'child.started',
  'execution.ended',
];

export type RunEventOutcome = 'succeeded' | 'failed' | 'stopped';

/** A step's or an iteration's start or end. Times are epoch milliseconds. */
export interface ProgressRunEvent {
  type: 'step.started' | 'step.ended' | 'iteration.started' | 'iteration.ended';
  time: number;
  address: string;
  /** The step's id; absent for an iteration. */
  step?: string;
  /** Inside a loop: the innermost iteration's index. */
  iteration?: number;
  attempt: number;
  host: string;
  /** `*.ended` only. */
  outcome?: RunEventOutcome;
  durationMs?: number;
  error?: string;
}

export interface WaitRunEvent {
  type: 'wait.started';
  time: number;
  address: string;
  waitFor: 'time' | 'callback';
  /** Epoch milliseconds, when the wait is bounded. */
  until?: number;
}

export interface ChildRunEvent {
  type: 'child.started';
  time: number;
  address: string;
  child: string;
}

/** The events a worker writes (`execution.ended` is written by the end script itself). */
export type RunEvent = ProgressRunEvent | WaitRunEvent | ChildRunEvent;

/** An error is kept to this many characters, as in the step history. */
const MAX_ERROR_CHARS = 1000;

const text = JSON.stringify;

/**
 * The data line of an event as stored and sent: `type` first, which the scripts read the type
 * from (run-events.lua), and every time a string, like every time of the interface. Written out
 * member by member: a loop of pure steps encodes four per iteration.
 */
export function encodeRunEvent(event: RunEvent): string {
  const head = `{"type":"${event.type}","time":"${Math.trunc(event.time)}","address":${text(event.address)}`;
  switch (event.type) {
    case 'wait.started':
      return `${head},"waitFor":"${event.waitFor}"${event.until !== undefined ? `,"until":"${Math.trunc(event.until)}"` : ''}}`;
    case 'child.started':
      return `${head},"child":${text(event.child)}}`;
    default: {
      let line = head;
      if (event.step !== undefined) line += `,"step":${text(event.step)}`;
      if (event.iteration !== undefined) line += `,"iteration":${event.iteration}`;
      line += `,"attempt":${event.attempt},"host":${text(event.host)}`;
      if (event.outcome !== undefined) line += `,"outcome":"${event.outcome}"`;
      if (event.durationMs !== undefined) line += `,"durationMs":${Math.round(event.durationMs * 1000) / 1000}`;
      if (event.error !== undefined)
        line += `,"error":${text(event.error.length > MAX_ERROR_CHARS ? `${event.error.slice(0, MAX_ERROR_CHARS)}…` : event.error)}`;
      return `${line}}`;
    }
  }
}

/**
 * Encoded events as one script argument: one per line (JSON.stringify never writes a newline).
 * One argument rather than one each keeps the scripts' other arguments where they are.
 */
export function joinRunEvents(encoded: readonly string[]): string {
  return encoded.join('\n');
}

/**
 * Most entries one execution's stream keeps (about: trimmed by whole blocks), the oldest going
 * first: at least as many events, at most 4 times as many (run-events.lua).
 */
export const DEFAULT_RUN_EVENTS_BOUND = 1000;

/** One event as read back, with its id, strictly increasing per execution. */
export interface StoredRunEvent {
  id: string;
  type: RunEventType;
  /** One line of JSON, as sent. */
  data: string;
}

/** An event's id, `<ms>-<seq>-<index>`: what Last-Event-ID must look like. */
export const RUN_EVENT_ID = /^\d{1,20}-\d{1,20}-\d{1,5}$/;

/** Whether event id `a` comes after `b`: their numbers compared in turn. */
export function isAfter(a: string, b: string): boolean {
  const left = a.split('-');
  const right = b.split('-');
  for (let i = 0; i < 3; i++) {
    const x = left[i] ?? '0';
    const y = right[i] ?? '0';
    if (x.length !== y.length) return x.length > y.length;
    if (x !== y) return x > y;
  }
  return false;
}

/** Reads executions' run events. */
export interface RunEventLog {
  /**
   * The events after `afterId` (from the first kept when absent), oldest first: all of them, the
   * stream being bounded.
   */
  read(executionId: string, afterId: string | undefined): Promise<StoredRunEvent[]>;
}

export function createRunEventLog(deps: { redis: Redis; keys: KeySpace }): RunEventLog {
  const { redis, keys } = deps;
  return {
    async read(executionId, afterId) {
      // From the entry holding `afterId` on, that entry's later events among them.
      const [entryMs, entrySeq, index] = afterId?.split('-') ?? [];
      const from = afterId === undefined ? '-' : `${entryMs}-${entrySeq}`;
      const entries = await redis.xrange(keys.executionEvents(executionId), from, '+');
      const events: StoredRunEvent[] = [];
      for (const [entry, fields] of entries) {
        const skip = entry === from ? Number(index) + 1 : 0;
        for (let i = 2 * skip; i + 1 < fields.length; i += 2) {
          events.push({ id: `${entry}-${i / 2}`, type: fields[i] as RunEventType, data: fields[i + 1] as string });
        }
      }
      return events;
    },
  };
}
