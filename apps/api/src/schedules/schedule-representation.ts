import type { StoredSchedule } from '@ces/store';
import type { Representation } from '../formats/respond.ts';
import type { XmlTree } from '../formats/xml.ts';

/** How many next ticks a schedule shows. */
export const NEXT_TIMES_SHOWN = 5;

/** A schedule as its answers show it, with what only Redis's other keys know. */
export interface ShownSchedule {
  schedule: StoredSchedule;
  /** The next ticks (epoch ms); empty while paused. */
  nextTimes: number[];
  /** The run of the last fired tick and its status now (`GONE` once it is no longer kept). */
  lastRun?: { id: string; scheduledTime: number; status: string };
}

const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
] as const;

/** An interval as the duration a client writes (`30s`, `5m`): the largest unit that divides it. */
export function durationText(ms: number): string {
  const unit = UNITS.find(([, size]) => ms % size === 0);
  return unit ? `${ms / unit[1]}${unit[0]}` : `${ms}ms`;
}

function fields(shown: ShownSchedule): Record<string, unknown> {
  const { schedule, nextTimes, lastRun } = shown;
  const { spec } = schedule;
  const timing = 'everyMs' in spec.timing ? { every: durationText(spec.timing.everyMs) } : { cron: spec.timing.cron, timezone: spec.timing.timezone };
  return {
    name: schedule.name,
    choreo: spec.choreo,
    inputs: spec.inputs,
    ...(spec.preset !== undefined ? { preset: spec.preset } : {}),
    ...timing,
    overlap: spec.overlap,
    catchupWindowSeconds: spec.catchupWindowSeconds,
    ...(spec.note !== undefined ? { note: spec.note } : {}),
    state: schedule.paused ? 'paused' : 'active',
    ...(schedule.stateNote !== undefined ? { stateNote: schedule.stateNote } : {}),
    nextTimes: nextTimes.map(String),
    fired: schedule.fired,
    skipped: schedule.skipped,
    missed: schedule.missed,
    ...(schedule.buffered !== undefined ? { bufferedTime: String(schedule.buffered) } : {}),
    ...(lastRun !== undefined ? { lastRun: { id: lastRun.id, scheduledTime: String(lastRun.scheduledTime), status: lastRun.status } } : {}),
  };
}

/** The XML of a schedule: lists as repeated elements, every value as text. */
function xmlOf(json: Record<string, unknown>): XmlTree {
  const tree: Record<string, XmlTree> = {};
  for (const [name, value] of Object.entries(json)) {
    if (name === 'inputs') tree.inputs = { input: value as { name: string; value: string }[] };
    else if (name === 'nextTimes') tree.nextTimes = { time: value as string[] };
    else if (name === 'lastRun') tree.lastRun = value as Record<string, string>;
    else tree[name] = String(value);
  }
  return tree;
}

export function scheduleDetails(shown: ShownSchedule): Representation {
  const json = fields(shown);
  return { json, xml: { root: 'schedule', tree: xmlOf(json) } };
}

export function scheduleList(schedules: ShownSchedule[]): Representation {
  const list = schedules.map(fields);
  return { json: { schedules: list }, xml: { root: 'schedules', tree: { schedule: list.map(xmlOf) } } };
}

/** What a backfill started: the runs it started, oldest first, the tick left waiting, and the ticks it did not. */
export function backfillOutcome(outcome: {
  ticks: number;
  started: { id: string; scheduledTime: number }[];
  skipped: number;
  existing: number;
  buffered?: { id: string; scheduledTime: number };
}): Representation {
  const started = outcome.started.map((run) => ({ id: run.id, scheduledTime: String(run.scheduledTime) }));
  const buffered: { buffered?: Record<string, string> } = outcome.buffered
    ? { buffered: { id: outcome.buffered.id, scheduledTime: String(outcome.buffered.scheduledTime) } }
    : {};
  return {
    json: { ticks: outcome.ticks, started, skipped: outcome.skipped, existing: outcome.existing, ...buffered },
    xml: {
      root: 'backfill',
      tree: { ticks: String(outcome.ticks), started: { run: started }, skipped: String(outcome.skipped), existing: String(outcome.existing), ...buffered },
    },
  };
}

/** A trigger's tick left waiting under buffer-one: shaped as an accepted run, its status BUFFERED. */
export function tickBuffered(schedule: StoredSchedule, id: string, scheduledTime: number): Representation {
  const execution = {
    id,
    choreo: schedule.spec.choreo,
    starttime: '',
    endtime: '',
    host: '',
    status: 'BUFFERED',
    schedule: schedule.name,
    scheduledTime: String(scheduledTime),
  };
  return { json: { id, execution }, xml: { root: 'execution', tree: execution } };
}
