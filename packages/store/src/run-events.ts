import type { Redis } from 'ioredis';
import { RECORD_FIELDS } from './execution-record.ts';
import type { KeySpace } from './keys.ts';
import { decodeStepHistory, type StepEvent } from './step-history.ts';

/**
 * An execution's run events: what a client watching the run is sent (GET …/events), kept in a
 * list beside the record (keys.ts `executionEvents`), written by the same scripts that
 * write the progress and the end, so that an event exists exactly when what it tells is stored.
 * Each is stored as its number in the run (1, 2, …), which is its id, and its data, the one line
 * of JSON sent as it is, whose first member is its type (run-events.lua). A run that ended
 * without a list of them (an instant run: its end brought only its steps' starts and ends, see
 * end-execution.lua) has them read from its step history and its record, numbered the same way.
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
  waitFor: 'time' | 'callback' | 'child';
  /** Epoch milliseconds, when the wait is bounded. */
  until?: number;
  /** Waiting for a child execution (choreo.run): its id. */
  child?: string;
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
      return `${head},"waitFor":"${event.waitFor}"${event.until !== undefined ? `,"until":"${Math.trunc(event.until)}"` : ''}${event.child !== undefined ? `,"child":${text(event.child)}` : ''}}`;
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

/** Most events one execution keeps, the oldest going first. */
export const DEFAULT_RUN_EVENTS_BOUND = 2000;

/** One event as read back, with its id, strictly increasing per execution. */
export interface StoredRunEvent {
  id: string;
  type: RunEventType;
  /** One line of JSON, as sent. */
  data: string;
}

/** An event's id, its number in the run: what Last-Event-ID must look like. */
export const RUN_EVENT_ID = /^\d{1,15}$/;

/** Whether event id `a` comes after `b`. */
export function isAfter(a: string, b: string): boolean {
  return Number(a) > Number(b);
}

/** The type of a stored data line: its first member. */
const TYPE = /^\{"type":"([^"]+)"/;

/** A window of the list's last events read first: as many as a few writes add. */
const TAIL = 32;

/** Reads executions' run events. */
export interface RunEventLog {
  /**
   * The events after `afterId` (from the first kept when absent), oldest first: all of them, the
   * stream being bounded.
   */
  read(executionId: string, afterId: string | undefined): Promise<StoredRunEvent[]>;
}

export function createRunEventLog(deps: {
  redis: Redis;
  /** The key space of an execution's shard (shard-layout.ts), or the one of a deployment without shards. */
  keys: KeySpace | ((executionId: string) => KeySpace);
}): RunEventLog {
  const { redis } = deps;
  const keysOf = typeof deps.keys === 'function' ? deps.keys : () => deps.keys as KeySpace;

  /** The events of an ended run kept without a list: its steps' attempts, then its end. */
  async function derived(executionId: string): Promise<StoredRunEvent[]> {
    const keys = keysOf(executionId);
    const [[recordError, record], [listError, list]] = ((await redis
      .multi()
      .hmget(keys.execution(executionId), RECORD_FIELDS.status, RECORD_FIELDS.endtime, RECORD_FIELDS.stepHistory)
      .lrange(keys.executionSteps(executionId), 0, -1)
      .exec()) ?? []) as [[Error | null, (string | null)[]], [Error | null, string[]]];
    if (recordError || listError) throw recordError ?? listError;
    const [status, endtime, field] = record;
    // Running (nothing yet), or gone.
    if (!status || status === 'RUNNING' || !endtime) return [];
    const lines: string[] = [];
    for (const step of decodeStepHistory(list, field).events) lines.push(...attemptEvents(step));
    lines.push(`{"type":"execution.ended","time":${JSON.stringify(endtime)}}`);
    return lines.map((data, index) => ({ id: String(index + 1), type: (TYPE.exec(data)?.[1] ?? '') as RunEventType, data }));
  }
  return {
    async read(executionId, afterId) {
      const key = keysOf(executionId).executionEvents(executionId);
      const after = afterId === undefined ? 0 : Number(afterId);
      // The last few first, which is all a watcher that keeps up needs; then the whole list.
      let events = (await redis.lrange(key, afterId === undefined ? 0 : -TAIL, -1)).map(decode);
      const first = events[0];
      if (events.length === TAIL && first !== undefined && Number(first.id) > after + 1) events = (await redis.lrange(key, 0, -1)).map(decode);
      if (events.length === 0) events = await derived(executionId);
      return events.filter((event) => Number(event.id) > after);
    },
  };
}

function decode(item: string): StoredRunEvent {
  const space = item.indexOf(' ');
  const data = item.slice(space + 1);
  return { id: item.slice(0, space), type: (TYPE.exec(data)?.[1] ?? '') as RunEventType, data };
}

/** The start and the end of one attempt of a step, as the worker would have written them. */
function attemptEvents(step: StepEvent): [string, string] {
  const place = { address: step.address, step: step.id, iteration: step.iteration, attempt: step.attempt, host: step.host };
  return [
    encodeRunEvent({ type: 'step.started', time: step.start, ...place }),
    encodeRunEvent({ type: 'step.ended', time: step.end, ...place, outcome: step.outcome, durationMs: step.durationMs, error: step.error }),
  ];
}
