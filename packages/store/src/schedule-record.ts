import type { OverlapPolicy, ScheduleSpec, StoredSchedule } from './schedule.ts';

/**
 * A schedule's hash, written small so that an idle schedule costs a few hundred bytes: one-letter
 * fields, none for a default or a zero count, and the spec as a positional JSON array cut into
 * values of at most 64 bytes, so that Redis keeps the hash as a listpack (one value over
 * `hash-max-listpack-value` turns the whole hash into a hash table, twice the size).
 *
 * | field | holds |
 * | --- | --- |
 * | `s`, `s1`, `s2`… | the spec, in pieces |
 * | `c` | the cursor |
 * | `p` | `1` while paused |
 * | `f`, `m`, `k` | fired, missed, skipped (absent while 0) |
 * | `l` | the last fired tick |
 * | `b` | the tick waiting under buffer-one |
 * | `n` | the note of the last pause or resume |
 *
 * Hashes written before name them `spec` (the spec as a JSON object), `cursor`, `paused`,
 * `fired`, `missed`, `skipped`, `lastTick`, `buffered` and `stateNote`: they are read as they
 * are, and every script that writes one renames its fields first (schedule-layout.lua).
 */

const MOST_PIECE_BYTES = 64;
const LIBRARY = '/Library/';
const DEFAULT_CATCHUP_SECONDS = 3_600;
const OVERLAPS: OverlapPolicy[] = ['skip', 'buffer-one', 'allow-all'];

type CompactSpec = [string, number | string | [string, string], string[]?, number?, number?, (string | 0)?, (string | null)?];

/** The spec as the array kept: [choreo, timing, inputs, overlap, catch-up, preset, note], trailing defaults left out. */
export function encodeSpec(spec: ScheduleSpec): string {
  // Most Choreos are the library's: its prefix is one character.
  const choreo = spec.choreo.startsWith(LIBRARY) ? `~${spec.choreo.slice(LIBRARY.length - 1)}` : spec.choreo;
  const timing = 'everyMs' in spec.timing ? spec.timing.everyMs : spec.timing.timezone === 'UTC' ? spec.timing.cron : [spec.timing.cron, spec.timing.timezone];
  const compact: unknown[] = [
    choreo,
    timing,
    spec.inputs.flatMap((input) => [input.name, input.value]),
    OVERLAPS.indexOf(spec.overlap),
    spec.catchupWindowSeconds,
    spec.preset ?? 0,
    spec.note ?? null,
  ];
  const defaults: unknown[] = [undefined, undefined, [], 0, DEFAULT_CATCHUP_SECONDS, 0, null];
  while (compact.length > 2 && JSON.stringify(compact.at(-1)) === JSON.stringify(defaults[compact.length - 1])) compact.pop();
  return JSON.stringify(compact);
}

export function decodeSpec(text: string): ScheduleSpec {
  // A hash written before keeps the spec as an object.
  if (text.startsWith('{')) return JSON.parse(text) as ScheduleSpec;
  const [choreo, timing, inputs = [], overlap = 0, catchup = DEFAULT_CATCHUP_SECONDS, preset = 0, note = null] = JSON.parse(text) as CompactSpec;
  const pairs: { name: string; value: string }[] = [];
  for (let index = 0; index + 1 < inputs.length; index += 2) pairs.push({ name: inputs[index] as string, value: inputs[index + 1] as string });
  return {
    choreo: choreo.startsWith('~') ? `${LIBRARY.slice(0, -1)}${choreo.slice(1)}` : choreo,
    inputs: pairs,
    ...(preset !== 0 ? { preset } : {}),
    timing:
      typeof timing === 'number'
        ? { everyMs: timing }
        : typeof timing === 'string'
          ? { cron: timing, timezone: 'UTC' }
          : { cron: timing[0], timezone: timing[1] },
    overlap: OVERLAPS[overlap] ?? 'skip',
    catchupWindowSeconds: catchup,
    ...(note !== null ? { note } : {}),
  };
}

/** The encoded spec in pieces of at most 64 bytes each, cut between characters: `s`, `s1`, `s2`… */
export function specPieces(spec: ScheduleSpec): string[] {
  const pieces: string[] = [];
  let piece = '';
  let bytes = 0;
  for (const character of encodeSpec(spec)) {
    const size = Buffer.byteLength(character);
    if (bytes + size > MOST_PIECE_BYTES) {
      pieces.push(piece);
      piece = '';
      bytes = 0;
    }
    piece += character;
    bytes += size;
  }
  pieces.push(piece);
  return pieces;
}

function joinedSpec(hash: Record<string, string>): string | undefined {
  if (hash.spec !== undefined || hash.s === undefined) return hash.spec;
  let text = hash.s;
  for (let index = 1; hash[`s${index}`] !== undefined; index += 1) text += hash[`s${index}`];
  return text;
}

const count = (value: string | undefined) => Number(value ?? 0);

/**
 * A schedule from its hash as HGETALL answers it, in either layout; undefined when it has no spec.
 * A field under its old name wins, as in schedule-layout.lua's renaming: a hash with both was
 * written last by a process of the version before.
 */
export function decodeSchedule(account: string, name: string, hash: Record<string, string>): StoredSchedule | undefined {
  const spec = joinedSpec(hash);
  const cursor = hash.cursor ?? hash.c;
  if (spec === undefined || cursor === undefined) return undefined;
  const lastTick = hash.lastTick ?? hash.l;
  const stateNote = hash.stateNote ?? hash.n;
  const buffered = hash.buffered ?? hash.b;
  return {
    account,
    name,
    spec: decodeSpec(spec),
    cursor: Number(cursor),
    paused: (hash.paused ?? hash.p) === '1',
    fired: count(hash.fired ?? hash.f),
    missed: count(hash.missed ?? hash.m),
    skipped: count(hash.skipped ?? hash.k),
    ...(lastTick ? { lastTick: Number(lastTick) } : {}),
    ...(stateNote !== undefined ? { stateNote } : {}),
    ...(buffered ? { buffered: Number(buffered) } : {}),
  };
}
