import type * as Luxon from 'luxon';
import type { DateTime } from 'luxon';
import { z } from 'zod';
import { adjustDate, fromEpochMs, parseDateText, resolveLocale, resolveTimeZone, wallClock } from './date-inputs.ts';
import { libraryOnFirstUse } from '@ces/formats';
import { formatSimpleDate, MAX_PATTERN_LENGTH } from './simple-date-format.ts';
import { defineStepKind, InvalidStepInputError, type StepKind } from '@ces/language';
import { choiceArg, optionalIntegerArg } from './lenient-args.ts';

const luxon = libraryOnFirstUse<typeof Luxon>('luxon');

/** The original Utilities' Dates: Java SimpleDateFormat patterns, zones, locales, Set/Add adjustments. */

const DEFAULT_FORMAT = 'yyyy-MM-dd HH:mm:ss';
const YEARS = 270_000;

const adjustmentArgs = {
  setYear: optionalIntegerArg(-YEARS, YEARS),
  setMonth: optionalIntegerArg(1, 12),
  setDay: optionalIntegerArg(1, 31),
  setHour: optionalIntegerArg(0, 23),
  setMinute: optionalIntegerArg(0, 59),
  setSecond: optionalIntegerArg(0, 59),
  addYears: optionalIntegerArg(-YEARS, YEARS),
  addMonths: optionalIntegerArg(-12 * YEARS, 12 * YEARS),
  addDays: optionalIntegerArg(-366 * YEARS, 366 * YEARS),
  addHours: optionalIntegerArg(-24 * 366 * YEARS, 24 * 366 * YEARS),
  addMinutes: optionalIntegerArg(-1440 * 366 * YEARS, 1440 * 366 * YEARS),
  addSeconds: optionalIntegerArg(-86_400 * 366 * YEARS, 86_400 * 366 * YEARS),
};
const granularity = choiceArg(['milliseconds', 'seconds'], 'milliseconds');
const dateText = z.string().max(200);

function timestamp(date: DateTime, unit: 'milliseconds' | 'seconds'): string {
  const epochMs = date.toMillis();
  return String(unit === 'seconds' ? Math.floor(epochMs / 1000) : epochMs);
}

/** Epoch milliseconds, or (leniently) any date text parseDateText reads; empty is now. */
function momentOf(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '') return Date.now();
  return parseDateText(trimmed).toMillis();
}

export const dateUtilitySteps: readonly StepKind[] = [
  defineStepKind({
    kind: 'dates.format',
    description:
      'Formats `timestamp` (epoch milliseconds, or date text; empty: now) with the Java SimpleDateFormat pattern `format` (default yyyy-MM-dd HH:mm:ss) in `timeZone` (IANA name, GMT+hh:mm or a Java short ID; default UTC) and the locale of `localeLanguage`, `localeCountry`, `localeVariant` (default en-US), after the set*/add* adjustments. Result: `{ text, epochMs }`.',
    argsSchema: z.strictObject({
      timestamp: dateText.default(''),
      format: z.string().max(MAX_PATTERN_LENGTH).default(''),
      timeZone: z.string().max(200).default(''),
      localeLanguage: z.string().max(50).default(''),
      localeCountry: z.string().max(50).default(''),
      localeVariant: z.string().max(50).default(''),
      ...adjustmentArgs,
    }),
    example: { timestamp: '{{inputs.Timestamp}}', format: 'EEE, d MMM yyyy HH:mm:ss Z', timeZone: 'Europe/Paris', addDays: '{{inputs.AddDays}}' },
    run: async (args) => {
      const locale = resolveLocale(args.localeLanguage, args.localeCountry, args.localeVariant);
      const date = adjustDate(fromEpochMs(momentOf(args.timestamp), resolveTimeZone(args.timeZone), locale.tag), args);
      const pattern = args.format.trim() === '' ? DEFAULT_FORMAT : args.format;
      return { text: formatSimpleDate(date, pattern, locale.week), epochMs: date.toMillis() };
    },
  }),
  defineStepKind({
    kind: 'dates.timestamp',
    description:
      'The epoch time of `date` (date text such as "March 2, 2014" or ISO 8601, read in UTC unless it has an offset; epoch milliseconds; empty: now) after the set*/add* adjustments (in UTC), in `granularity` milliseconds (default) or seconds. Result: `{ timestamp }`.',
    argsSchema: z.strictObject({ date: dateText.default(''), granularity, ...adjustmentArgs }),
    example: { date: '{{inputs.Date}}', granularity: '{{inputs.Granularity}}', addDays: '{{inputs.AddDays}}' },
    run: async (args) => {
      const date = adjustDate(fromEpochMs(momentOf(args.date), luxon().FixedOffsetZone.utcInstance, 'en-US'), args);
      return { timestamp: timestamp(date, args.granularity) };
    },
  }),
  defineStepKind({
    kind: 'dates.timestamp-from-parts',
    description:
      "The epoch time of a UTC date from its parts: `year`, `month` (1-12), `day` (1-31) — each today's when not given — and `hour`, `minute`, `second`, `millisecond` (0 when not given); a day past the month's end carries over. `granularity` milliseconds (default) or seconds. Result: `{ timestamp }`.",
    argsSchema: z.strictObject({
      year: optionalIntegerArg(-YEARS, YEARS),
      month: optionalIntegerArg(1, 12),
      day: optionalIntegerArg(1, 31),
      hour: optionalIntegerArg(0, 23),
      minute: optionalIntegerArg(0, 59),
      second: optionalIntegerArg(0, 59),
      millisecond: optionalIntegerArg(0, 999),
      granularity,
    }),
    example: { year: '{{inputs.Year}}', month: '{{inputs.Month}}', day: '{{inputs.Day}}', granularity: 'seconds' },
    run: async (args) => {
      const today = luxon().DateTime.utc();
      const date = wallClock(
        {
          year: args.year ?? today.year,
          month: args.month ?? today.month,
          day: args.day ?? today.day,
          hour: args.hour ?? 0,
          minute: args.minute ?? 0,
          second: args.second ?? 0,
          millisecond: args.millisecond ?? 0,
        },
        today,
      );
      return { timestamp: timestamp(date, args.granularity) };
    },
  }),
  defineStepKind({
    kind: 'dates.difference',
    pure: true,
    description:
      'Milliseconds from `earlier` to `later` (date texts as dates.timestamp reads them; negative when `later` is before `earlier`). Result: `{ milliseconds }`.',
    argsSchema: z.strictObject({ earlier: dateText, later: dateText }),
    example: { earlier: '{{inputs.EarlierDate}}', later: '{{inputs.LaterDate}}' },
    run: async (args) => {
      if (args.earlier.trim() === '' || args.later.trim() === '') throw new InvalidStepInputError('both dates are needed');
      return { milliseconds: String(parseDateText(args.later).toMillis() - parseDateText(args.earlier).toMillis()) };
    },
  }),
];
