import type { DateTime } from 'luxon';
import { InvalidStepInputError } from '@ces/language';

/**
 * Java's `SimpleDateFormat` patterns, as the original Utilities' Dates Choreos take them, on a
 * Luxon DateTime (its zone and locale: names of months, weekdays, eras, day periods and zones come
 * from Intl). Numbers are written with ASCII digits, padded to the number of letters.
 */

/** A run of one pattern letter, or literal text (quoted, or anything that is not a letter). */
export type PatternPart = { readonly letter: string; readonly count: number } | { readonly literal: string };

const PATTERN_LETTERS = 'GyYMLwWDdFEuaHkKhmsSzZX';
export const MAX_PATTERN_LENGTH = 500;

/** Splits a pattern as SimpleDateFormat does, refusing what it refuses (unknown letters, an unclosed quote). */
export function parseSimpleDatePattern(pattern: string): PatternPart[] {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new InvalidStepInputError(`the date format is longer than ${MAX_PATTERN_LENGTH} characters`);
  const parts: PatternPart[] = [];
  let literal = '';
  const flush = () => {
    if (literal !== '') parts.push({ literal });
    literal = '';
  };
  let index = 0;
  while (index < pattern.length) {
    const character = pattern[index] as string;
    if (character === "'") {
      if (pattern[index + 1] === "'") {
        literal += "'";
        index += 2;
        continue;
      }
      // Quoted text runs to the next lone quote; '' inside it is a quote.
      index++;
      for (;;) {
        if (index >= pattern.length) throw new InvalidStepInputError(`the date format ${JSON.stringify(pattern)} has an unterminated quote`);
        if (pattern[index] === "'") {
          if (pattern[index + 1] === "'") {
            literal += "'";
            index += 2;
            continue;
          }
          index++;
          break;
        }
        literal += pattern[index];
        index++;
      }
      continue;
    }
    if (/[A-Za-z]/.test(character)) {
      if (!PATTERN_LETTERS.includes(character)) {
        throw new InvalidStepInputError(`the date format has the illegal pattern character '${character}' (quote literal letters: 'T')`);
      }
      let count = 1;
      while (pattern[index + count] === character) count++;
      if (character === 'X' && count > 3) throw new InvalidStepInputError('the date format has XXXX: X, XX and XXX are the ISO 8601 time zone formats');
      flush();
      parts.push({ letter: character, count });
      index += count;
      continue;
    }
    literal += character;
    index++;
  }
  flush();
  return parts;
}

/** How the locale counts weeks (Java's Calendar.getFirstDayOfWeek and getMinimalDaysInFirstWeek). */
export interface WeekRules {
  /** 1 = Monday … 7 = Sunday. */
  readonly firstDay: number;
  readonly minimalDays: number;
}

export function formatSimpleDate(dateTime: DateTime, pattern: string, week: WeekRules): string {
  return parseSimpleDatePattern(pattern)
    .map((part) => ('literal' in part ? part.literal : formatField(dateTime, part.letter, part.count, week)))
    .join('');
}

const pad = (value: number, width: number) => `${value < 0 ? '-' : ''}${String(Math.abs(value)).padStart(width, '0')}`;

function formatField(dateTime: DateTime, letter: string, count: number, week: WeekRules): string {
  const hour = dateTime.hour;
  switch (letter) {
    case 'G':
      return dateTime.toFormat('G');
    case 'y':
      return formatYear(yearOfEra(dateTime.year), count);
    case 'Y':
      return formatYear(weekOfYear(dateTime, week).weekYear, count);
    case 'M':
      return count >= 4 ? dateTime.toFormat('MMMM') : count === 3 ? dateTime.toFormat('MMM') : pad(dateTime.month, count);
    case 'L':
      return count >= 4 ? dateTime.toFormat('LLLL') : count === 3 ? dateTime.toFormat('LLL') : pad(dateTime.month, count);
    case 'w':
      return pad(weekOfYear(dateTime, week).week, count);
    case 'W':
      return pad(weekOfMonth(dateTime, week), count);
    case 'D':
      return pad(dateTime.ordinal, count);
    case 'd':
      return pad(dateTime.day, count);
    case 'F':
      return pad(Math.floor((dateTime.day - 1) / 7) + 1, count);
    case 'E':
      return dateTime.toFormat(count >= 4 ? 'EEEE' : 'EEE');
    case 'u':
      return pad(dateTime.weekday, count);
    case 'a':
      return dateTime.toFormat('a');
    case 'H':
      return pad(hour, count);
    case 'k':
      return pad(hour === 0 ? 24 : hour, count);
    case 'K':
      return pad(hour % 12, count);
    case 'h':
      return pad(hour % 12 === 0 ? 12 : hour % 12, count);
    case 'm':
      return pad(dateTime.minute, count);
    case 's':
      return pad(dateTime.second, count);
    case 'S':
      return pad(dateTime.millisecond, count);
    case 'z':
      return zoneName(dateTime, count >= 4);
    case 'Z':
      return offsetText(dateTime.offset, 'hhmm');
    default:
      // X, XX, XXX: ISO 8601, with Z for UTC.
      if (dateTime.offset === 0) return 'Z';
      return offsetText(dateTime.offset, count === 1 ? 'hh' : count === 2 ? 'hhmm' : 'hh:mm');
  }
}

/**
 * A named zone's name in the locale (PDT, Pacific Daylight Time); UTC's too. Other fixed offsets
 * are named as Java names a custom zone: GMT+05:30.
 */
function zoneName(dateTime: DateTime, long: boolean): string {
  if (dateTime.zone.type === 'iana') return dateTime.toFormat(long ? 'ZZZZZ' : 'ZZZZ');
  if (dateTime.offset === 0) {
    const name = new Intl.DateTimeFormat(dateTime.locale ?? 'en-US', { timeZone: 'UTC', timeZoneName: long ? 'long' : 'short' })
      .formatToParts(dateTime.toMillis())
      .find((part) => part.type === 'timeZoneName');
    return name?.value ?? 'UTC';
  }
  return `GMT${offsetText(dateTime.offset, 'hh:mm')}`;
}

/** Years before 1 are counted back from it with the era (1 BC is year 0 astronomically). */
const yearOfEra = (year: number) => (year <= 0 ? 1 - year : year);

/** Two letters keep the last two digits; any other count is the whole number, padded. */
function formatYear(year: number, count: number): string {
  return count === 2 ? pad(year % 100, 2) : pad(year, count);
}

function offsetText(offsetMinutes: number, form: 'hh' | 'hhmm' | 'hh:mm'): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const hours = pad(Math.trunc(Math.abs(offsetMinutes) / 60), 2);
  const minutes = pad(Math.abs(offsetMinutes) % 60, 2);
  return form === 'hh' ? `${sign}${hours}` : form === 'hhmm' ? `${sign}${hours}${minutes}` : `${sign}${hours}:${minutes}`;
}

/** Days since 1970-01-01 of a calendar date (proleptic Gregorian, any year). */
function dayNumber(year: number, month: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return Math.round(date.getTime() / 86_400_000);
}

/** 1 = Monday … 7 = Sunday; day 0 was a Thursday. */
const isoWeekday = (days: number) => ((((days + 3) % 7) + 7) % 7) + 1;

/** The first day of week 1 of the period starting on `firstOfPeriod`, as Java's Calendar counts it. */
function firstWeekStart(firstOfPeriod: number, week: WeekRules): number {
  const intoWeek = (isoWeekday(firstOfPeriod) - week.firstDay + 7) % 7;
  const start = firstOfPeriod - intoWeek;
  return 7 - intoWeek >= week.minimalDays ? start : start + 7;
}

export function weekOfYear(dateTime: DateTime, week: WeekRules): { week: number; weekYear: number } {
  const today = dayNumber(dateTime.year, dateTime.month, dateTime.day);
  let weekYear = dateTime.year;
  let start = firstWeekStart(dayNumber(weekYear, 1, 1), week);
  if (today < start) {
    weekYear--;
    start = firstWeekStart(dayNumber(weekYear, 1, 1), week);
  } else {
    const next = firstWeekStart(dayNumber(weekYear + 1, 1, 1), week);
    if (today >= next) {
      weekYear++;
      start = next;
    }
  }
  return { week: Math.floor((today - start) / 7) + 1, weekYear: yearOfEra(weekYear) };
}

/** 0 for the days before the month's first full-enough week, as Java's WEEK_OF_MONTH. */
export function weekOfMonth(dateTime: DateTime, week: WeekRules): number {
  const today = dayNumber(dateTime.year, dateTime.month, dateTime.day);
  return Math.floor((today - firstWeekStart(dayNumber(dateTime.year, dateTime.month, 1), week)) / 7) + 1;
}
