import type { Redis } from 'ioredis';
import type { KeySpace } from './keys.ts';

/**
 * An execution's run events: what a client watching the run is sent (GET …/events), kept in a
 * Redis Stream beside the record (keys.ts `executionEvents`), written by the same scripts that
 * write the progress and the end, so that an event exists exactly when what it tells is stored.
 * Each is stored as its type and its data, the data being the one line of JSON sent as it is.
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

/**
 * The data line of an event as stored and sent: `type` first, which the scripts read the type
 * from (run-events.lua), and every time a string, like every time of the interface.
 */
export function encodeRunEvent(event: RunEvent): string {
  const time = String(event.time);
  switch (event.type) {
    case 'wait.started':
      return JSON.stringify({
        type: event.type,
        time,
        address: event.address,
        waitFor: event.waitFor,
        ...(event.until !== undefined ? { until: String(event.until) } : {}),
      });
    case 'child.started':
      return JSON.stringify({ type: event.type, time, address: event.address, child: event.child });
    default: {
      const error = event.error !== undefined && event.error.length > MAX_ERROR_CHARS ? `${event.error.slice(0, MAX_ERROR_CHARS)}…` : event.error;
      return JSON.stringify({
        type: event.type,
        time,
        address: event.address,
        ...(event.step !== undefined ? { step: event.step } : {}),
        ...(event.iteration !== undefined ? { iteration: event.iteration } : {}),
        attempt: event.attempt,
        host: event.host,
        ...(event.outcome !== undefined ? { outcome: event.outcome } : {}),
        ...(event.durationMs !== undefined ? { durationMs: Math.round(event.durationMs * 1000) / 1000 } : {}),
        ...(error !== undefined ? { error } : {}),
      });
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

/** Most events one execution's stream keeps (about: trimmed by whole blocks); the oldest go first. */
export const DEFAULT_RUN_EVENTS_BOUND = 2000;

/** One event as read back: its stream id is its id, strictly increasing per execution. */
export interface StoredRunEvent {
  id: string;
  type: RunEventType;
  /** One line of JSON, as sent. */
  data: string;
}

/** A stream entry id, `<ms>-<seq>`: what Last-Event-ID must look like. */
export const RUN_EVENT_ID = /^\d{1,20}-\d{1,20}$/;

/** Whether stream id `a` comes after `b`. */
export function isAfter(a: string, b: string): boolean {
  const [aMs = '0', aSeq = '0'] = a.split('-');
  const [bMs = '0', bSeq = '0'] = b.split('-');
  if (aMs.length !== bMs.length) return aMs.length > bMs.length;
  if (aMs !== bMs) return aMs > bMs;
  if (aSeq.length !== bSeq.length) return aSeq.length > bSeq.length;
  return aSeq > bSeq;
}

/** Reads executions' run events. */
export interface RunEventLog {
  /** The events after `afterId` (from the first kept when absent), oldest first, at most `count`. */
  read(executionId: string, afterId: string | undefined, count?: number): Promise<StoredRunEvent[]>;
}

export function createRunEventLog(deps: { redis: Redis; keys: KeySpace }): RunEventLog {
  const { redis, keys } = deps;
  return {
    async read(executionId, afterId, count = 1000) {
      const entries = await redis.xrange(keys.executionEvents(executionId), afterId === undefined ? '-' : `(${afterId}`, '+', 'COUNT', count);
      return entries.map(([id, fields]) => {
        let type = '';
        let data = '';
        for (let i = 0; i + 1 < fields.length; i += 2) {
          if (fields[i] === 't') type = fields[i + 1] as string;
          else if (fields[i] === 'd') data = fields[i + 1] as string;
        }
        return { id, type: type as RunEventType, data };
      });
    },
  };
}
