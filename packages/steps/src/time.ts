import { z } from 'zod';
import type { WallClockFields } from './date-inputs.ts';
import { defineStepKind, InvalidStepInputError, type StepKind } from '@ces/language';
import { integerArg } from './arg-types.ts';

const MAX_EPOCH_MS = 8.64e15;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const NAMED_FORMATS = ['iso', 'epoch-ms', 'epoch-seconds', 'rfc1123'] as const;

/** Epoch milliseconds (digits) or any date text Date.parse understands (ISO 8601, RFC 2822/1123). */
export function parseTime(value: string, format: 'auto' | 'epoch-ms' | 'epoch-seconds' = 'auto'): number {
  const trimmed = value.trim();
  let epochMs: number;
  if (format === 'epoch-seconds') epochMs = /^-?\d+(\.\d+)?$/.test(trimmed) ? Math.round(Number(trimmed) * 1000) : Number.NaN;
  else if (format === 'epoch-ms' || /^-?\d+$/.test(trimmed)) epochMs = /^-?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  else epochMs = Date.parse(trimmed);
  if (!Number.isFinite(epochMs) || Math.abs(epochMs) > MAX_EPOCH_MS) {
    throw new InvalidStepInputError(`${JSON.stringify(value.slice(0, 100))} is not a date and time this step can read`);
  }
  return epochMs;
}

/**
 * Formatters by the TimeZone input as given. Intl takes a zone's name in any letter case, so the
 * inputs a tenant can send are endless; a full cache is emptied rather than let grow. A few
 * hundred zones are in use, so it fills rarely in honest use.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
const REMEMBERED_TIME_ZONES = 1024;

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        weekday: 'long',
        era: 'short',
      });
    } catch {
      throw new InvalidStepInputError(`"${timeZone}" is not a known time zone (use an IANA name such as Europe/Paris, or UTC)`);
    }
    if (formatters.size >= REMEMBERED_TIME_ZONES) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

interface WallClock extends WallClockFields {
  weekday: number;
  offsetMinutes: number;
}

function wallClock(epochMs: number, timeZone: string): WallClock {
  const fields: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(epochMs))) fields[part.type] = part.value;
  // en-US counts years before 1 as 1 BC, 2 BC…; astronomical years go 0, -1…
  const year = fields.era === 'BC' ? 1 - Number(fields.year) : Number(fields.year);
  const clock = {
    year,
    month: Number(fields.month),
    day: Number(fields.day),
    hour: Number(fields.hour) % 24,
    minute: Number(fields.minute),
    second: Number(fields.second),
    millisecond: ((epochMs % 1000) + 1000) % 1000,
    weekday: WEEKDAYS.indexOf(fields.weekday ?? ''),
  };
  // Not Date.UTC, which reads years 0 to 99 as 1900 to 1999.
  const utc = new Date(0);
  utc.setUTCFullYear(clock.year, clock.month - 1, clock.day);
  utc.setUTCHours(clock.hour, clock.minute, clock.second, clock.millisecond);
  const asUtc = utc.getTime();
  return { ...clock, offsetMinutes: Math.round((asUtc - epochMs) / 60_000) };
}

const pad = (value: number, width = 2) => String(Math.abs(value)).padStart(width, '0');

function offsetText(minutes: number, colon: boolean): string {
  const sign = minutes < 0 ? '-' : '+';
  return `${sign}${pad(Math.trunc(Math.abs(minutes) / 60))}${colon ? ':' : ''}${pad(Math.abs(minutes) % 60)}`;
}

const TOKENS = /'([^']*)'|yyyy|yy|MMMM|MMM|MM|M|dd|d|EEEE|EEE|HH|H|hh|h|mm|ss|SSS|a|XXX|Z/g;

/** Formats with a small pattern language (see the docs) or one of the named formats. */
export function formatTime(epochMs: number, pattern: string, timeZone: string): string {
  switch (pattern) {
    case 'iso':
      if (timeZone === 'UTC') return new Date(epochMs).toISOString();
      return formatTime(epochMs, "yyyy-MM-dd'T'HH:mm:ss.SSSXXX", timeZone);
    case 'epoch-ms':
      return String(epochMs);
    case 'epoch-seconds':
      return String(Math.floor(epochMs / 1000));
    case 'rfc1123':
      return new Date(epochMs).toUTCString();
  }
  const clock = wallClock(epochMs, timeZone);
  return pattern.replace(TOKENS, (token, literal: string | undefined) => {
    if (literal !== undefined) return literal === '' ? "'" : literal;
    switch (token) {
      case 'yyyy':
        return clock.year < 0 ? `-${pad(clock.year, 4)}` : pad(clock.year, 4);
      case 'yy':
        return pad(clock.year % 100);
      case 'MMMM':
        return MONTHS[clock.month - 1] ?? '';
      case 'MMM':
        return (MONTHS[clock.month - 1] ?? '').slice(0, 3);
      case 'MM':
        return pad(clock.month);
      case 'M':
        return String(clock.month);
      case 'dd':
        return pad(clock.day);
      case 'd':
        return String(clock.day);
      case 'EEEE':
        return WEEKDAYS[clock.weekday] ?? '';
      case 'EEE':
        return (WEEKDAYS[clock.weekday] ?? '').slice(0, 3);
      case 'HH':
        return pad(clock.hour);
      case 'H':
        return String(clock.hour);
      case 'hh':
        return pad(clock.hour % 12 === 0 ? 12 : clock.hour % 12);
      case 'h':
        return String(clock.hour % 12 === 0 ? 12 : clock.hour % 12);
      case 'mm':
        return pad(clock.minute);
      case 'ss':
        return pad(clock.second);
      case 'SSS':
        return pad(clock.millisecond, 3);
      case 'a':
        return clock.hour < 12 ? 'AM' : 'PM';
      case 'XXX':
        return clock.offsetMinutes === 0 ? 'Z' : offsetText(clock.offsetMinutes, true);
      default:
        return offsetText(clock.offsetMinutes, false);
    }
  });
}

const moment = (epochMs: number) => ({ epochMs, epochSeconds: Math.floor(epochMs / 1000), iso: new Date(epochMs).toISOString() });
const inputFormat = z.enum(['auto', 'epoch-ms', 'epoch-seconds']).default('auto');
const UNIT_MS = { milliseconds: 1, seconds: 1000, minutes: 60_000, hours: 3_600_000, days: 86_400_000, weeks: 604_800_000 } as const;

export const timeSteps: readonly StepKind[] = [
  defineStepKind({
    kind: 'time.now',
    description: 'The current time. Result: `{ epochMs, epochSeconds, iso }` (ISO 8601 in UTC).',
    argsSchema: z.strictObject({}),
    example: {},
    run: async () => moment(Date.now()),
  }),
  defineStepKind({
    kind: 'time.parse',
    pure: true,
    description:
      'Reads `text` as a date and time: with `format` "auto" (default) epoch milliseconds (digits) or ISO 8601 / RFC 2822 text; or "epoch-ms", "epoch-seconds". Result: `{ epochMs, epochSeconds, iso }`.',
    argsSchema: z.strictObject({ text: z.string().max(200), format: inputFormat }),
    example: { text: '{{inputs.Date}}', format: 'auto' },
    run: async (args) => moment(parseTime(args.text, args.format)),
  }),
  defineStepKind({
    kind: 'time.format',
    pure: true,
    description: `Formats \`time\` (read as time.parse "auto" does) with \`format\`: one of ${NAMED_FORMATS.join(', ')} or a pattern of yyyy yy MMMM MMM MM M dd d EEEE EEE HH H hh h mm ss SSS a XXX Z and 'quoted text', in \`timeZone\` (IANA name, default UTC). Result: \`{ text }\`.`,
    argsSchema: z.strictObject({
      time: z.string().max(200),
      format: z.string().min(1).max(200).default('iso'),
      timeZone: z.string().min(1).max(100).default('UTC'),
    }),
    example: { time: '{{inputs.Date}}', format: 'yyyy-MM-dd HH:mm', timeZone: 'Europe/Paris' },
    run: async (args) => ({ text: formatTime(parseTime(args.time), args.format, args.timeZone) }),
  }),
  defineStepKind({
    kind: 'time.add',
    pure: true,
    description:
      'Adds `amount` (negative to subtract) `unit`s (milliseconds, seconds, minutes, hours, days, weeks) to `time` (read as time.parse "auto" does). Result: `{ epochMs, epochSeconds, iso }`.',
    argsSchema: z.strictObject({
      time: z.string().max(200),
      amount: integerArg(-1e12, 1e12),
      unit: z.enum(['milliseconds', 'seconds', 'minutes', 'hours', 'days', 'weeks']),
    }),
    example: { time: '{{inputs.Date}}', amount: '{{inputs.Days}}', unit: 'days' },
    run: async (args) => {
      const epochMs = parseTime(args.time) + args.amount * UNIT_MS[args.unit];
      if (Math.abs(epochMs) > MAX_EPOCH_MS) throw new InvalidStepInputError('the resulting date is out of range');
      return moment(epochMs);
    },
  }),
];
