import { type OverlapPolicy, parseDuration, type ScheduleSpec, timingProblem } from '@ces/store';

/** A problem in a schedule document, at an RFC 6901 pointer into it ("" for the document itself). */
export interface ScheduleProblem {
  pointer: string;
  message: string;
}

export type CheckedSchedule = { ok: true; spec: ScheduleSpec; paused: boolean } | { ok: false; problems: ScheduleProblem[] };

const OVERLAP_POLICIES: readonly OverlapPolicy[] = ['skip', 'buffer-one', 'allow-all'];
/** A day: a longer catch-up would start a burst of stale runs after an outage. */
const MAX_CATCHUP_WINDOW_SECONDS = 86_400;
const DEFAULT_CATCHUP_WINDOW_SECONDS = 3_600;
const MAX_NOTE_LENGTH = 1_024;
const KNOWN_FIELDS = new Set(['choreo', 'inputs', 'preset', 'cron', 'every', 'timezone', 'overlap', 'catchupWindowSeconds', 'paused', 'note']);

/**
 * Checks the document of `PUT /schedules/<name>` (as JSON, or XML already read into the same
 * shape) and says every problem at once, each at its pointer, so a client fixes all in one go.
 * Whether the Choreo may run and takes these inputs is the caller's to check: it needs the catalogue.
 */
export function checkScheduleDocument(document: unknown): CheckedSchedule {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    return { ok: false, problems: [{ pointer: '', message: 'must be an object such as {"choreo": "…", "cron": "0 9 * * 1", "timezone": "Europe/Berlin"}' }] };
  }
  const given = document as Record<string, unknown>;
  const problems: ScheduleProblem[] = [];
  const problem = (pointer: string, message: string) => problems.push({ pointer, message });
  for (const field of Object.keys(given))
    if (!KNOWN_FIELDS.has(field)) problem(`/${field.replaceAll('~', '~0').replaceAll('/', '~1')}`, 'is not a field of a schedule');

  const { choreo, preset, cron, every, note } = given;
  if (typeof choreo !== 'string' || !choreo.startsWith('/')) problem('/choreo', 'must be the id of a Choreo, such as /Library/Utilities/Encoding/Base64Encode');
  if (preset !== undefined && (typeof preset !== 'string' || preset === '')) problem('/preset', 'must be the name of a preset');
  if (note !== undefined && (typeof note !== 'string' || note.length > MAX_NOTE_LENGTH))
    problem('/note', `must be a text of at most ${MAX_NOTE_LENGTH} characters`);

  const inputs: { name: string; value: string }[] = [];
  if (given.inputs !== undefined && !Array.isArray(given.inputs)) problem('/inputs', 'must be an array of {"name", "value"}');
  for (const [index, input] of (Array.isArray(given.inputs) ? given.inputs : []).entries()) {
    const { name, value } = (input ?? {}) as { name?: unknown; value?: unknown };
    if (typeof name !== 'string' || name === '') problem(`/inputs/${index}/name`, 'must be the name of an input');
    else if (inputs.some((other) => other.name === name)) problem(`/inputs/${index}/name`, `gives input "${name}" a second time`);
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      problem(`/inputs/${index}/value`, 'must be a string, number or boolean');
    else if (typeof name === 'string') inputs.push({ name, value: String(value) });
  }

  const timezone = given.timezone ?? 'UTC';
  if (typeof timezone !== 'string') problem('/timezone', 'must be an IANA time zone such as Europe/Berlin');
  let timing: ScheduleSpec['timing'] | undefined;
  if ((cron === undefined) === (every === undefined)) problem('', 'needs exactly one of "cron" and "every"');
  else if (cron !== undefined) {
    if (typeof cron !== 'string') problem('/cron', 'must be a cron expression of 5 fields, or 6 with seconds first');
    else if (typeof timezone === 'string') timing = { cron, timezone };
  } else if (typeof every !== 'string' || parseDuration(every) === undefined) {
    problem('/every', 'must be a duration such as 1s, 30s, 5m or 1h');
  } else {
    timing = { everyMs: parseDuration(every) as number };
  }
  if (timing !== undefined) {
    const wrong = timingProblem(timing);
    if (wrong) problem(`/${wrong.field}`, wrong.message);
  }

  const overlap = given.overlap ?? 'skip';
  if (!OVERLAP_POLICIES.includes(overlap as OverlapPolicy)) problem('/overlap', `must be one of ${OVERLAP_POLICIES.join(', ')}`);
  const catchup = given.catchupWindowSeconds ?? DEFAULT_CATCHUP_WINDOW_SECONDS;
  if (!Number.isSafeInteger(catchup) || (catchup as number) < 0 || (catchup as number) > MAX_CATCHUP_WINDOW_SECONDS) {
    problem('/catchupWindowSeconds', `must be a whole number of seconds from 0 to ${MAX_CATCHUP_WINDOW_SECONDS}`);
  }
  const paused = given.paused ?? false;
  if (typeof paused !== 'boolean') problem('/paused', 'must be true or false');

  if (problems.length > 0 || timing === undefined) return { ok: false, problems };
  const spec: ScheduleSpec = {
    choreo: choreo as string,
    inputs,
    timing,
    overlap: overlap as OverlapPolicy,
    catchupWindowSeconds: catchup as number,
    ...(typeof preset === 'string' ? { preset } : {}),
    ...(typeof note === 'string' ? { note } : {}),
  };
  return { ok: true, spec, paused: paused as boolean };
}
