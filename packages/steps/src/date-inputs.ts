import type * as Luxon from 'luxon';
import type { DateTime, Zone } from 'luxon';
import { libraryOnFirstUse } from '@ces/formats';
import type { WeekRules } from './simple-date-format.ts';
import { InvalidStepInputError } from '@ces/language';

/**
 * The original Utilities' Dates inputs, read as Java read them: time zone IDs, locales from ISO
 * codes, Set and Add adjustments on a calendar, date strings.
 */

const luxon = libraryOnFirstUse<typeof Luxon>('luxon');

/** Java's three-letter zone IDs (ZoneId.SHORT_IDS) that are not IANA names. */
const JAVA_SHORT_ZONE_IDS: Readonly<Record<string, string>> = {
  ACT: 'Australia/Darwin',
  AET: 'Australia/Sydney',
  AGT: 'America/Argentina/Buenos_Aires',
  ART: 'Africa/Cairo',
  AST: 'America/Anchorage',
  BET: 'America/Sao_Paulo',
  BST: 'Asia/Dhaka',
  CAT: 'Africa/Harare',
  CNT: 'America/St_Johns',
  CST: 'America/Chicago',
  CTT: 'Asia/Shanghai',
  EAT: 'Africa/Addis_Ababa',
  ECT: 'Europe/Paris',
  IET: 'America/Indiana/Indianapolis',
  IST: 'Asia/Kolkata',
  JST: 'Asia/Tokyo',
  MIT: 'Pacific/Apia',
  NET: 'Asia/Yerevan',
  NST: 'Pacific/Auckland',
  PLT: 'Asia/Karachi',
  PNT: 'America/Phoenix',
  PRT: 'America/Puerto_Rico',
  PST: 'America/Los_Angeles',
  SST: 'Pacific/Guadalcanal',
  VST: 'Asia/Ho_Chi_Minh',
};

/** A zone from an IANA name, UTC/GMT, an offset as GMT+hh:mm, or one of Java's short IDs; empty is UTC. */
export function resolveTimeZone(id: string): Zone {
  const trimmed = id.trim();
  if (trimmed === '' || /^(UTC|GMT|Z)$/i.test(trimmed)) return luxon().FixedOffsetZone.utcInstance;
  const offset = /^(?:GMT|UTC)?([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(trimmed);
  if (offset !== null) {
    const hours = Number(offset[2]);
    const minutes = Number(offset[3] ?? '0');
    if (hours <= 23 && minutes <= 59) return luxon().FixedOffsetZone.instance((offset[1] === '-' ? -1 : 1) * (hours * 60 + minutes));
  }
  const name = JAVA_SHORT_ZONE_IDS[trimmed.toUpperCase()] ?? trimmed;
  const { IANAZone } = luxon();
  if (name.length <= 100 && IANAZone.isValidZone(name)) return IANAZone.create(name);
  throw new InvalidStepInputError(`"${trimmed.slice(0, 100)}" is not a known time zone (use an IANA name such as America/New_York, UTC, or GMT+05:30)`);
}

/** Java locale variants that Intl spells otherwise. */
const JAVA_VARIANTS: Readonly<Record<string, string>> = {
  no_NO_NY: 'nn-NO',
  ja_JP_JP: 'ja-JP-u-ca-japanese',
  th_TH_TH: 'th-TH-u-nu-thai',
};

export interface DateLocale {
  /** The BCP 47 tag Intl uses. */
  readonly tag: string;
  readonly week: WeekRules;
}

/** en-US, as the original's servers ran, when no language is given. */
export function resolveLocale(language: string, country: string, variant: string): DateLocale {
  const lang = language.trim();
  const region = country.trim();
  const extra = variant.trim();
  if (lang === '' && region === '') return localeOf('en-US');
  if (lang !== '' && !/^[A-Za-z]{2,3}$/.test(lang)) throw new InvalidStepInputError(`LocaleLanguage "${lang.slice(0, 20)}" is not an ISO language code`);
  if (region !== '' && !/^([A-Za-z]{2}|\d{3})$/.test(region))
    throw new InvalidStepInputError(`LocaleCountry "${region.slice(0, 20)}" is not an ISO country code`);
  const base = `${lang === '' ? 'und' : lang.toLowerCase()}${region === '' ? '' : `-${region.toUpperCase()}`}`;
  const javaName = `${lang.toLowerCase()}_${region.toUpperCase()}_${extra.toUpperCase()}`;
  // Variants Intl knows are kept; others (Java's own, such as POSIX) name nothing Intl can use.
  const tag = JAVA_VARIANTS[javaName] ?? (/^([A-Za-z0-9]{5,8}|\d[A-Za-z0-9]{3})$/.test(extra) ? `${base}-${extra.toLowerCase()}` : base);
  try {
    return localeOf(Intl.getCanonicalLocales(tag)[0] ?? 'en-US');
  } catch {
    throw new InvalidStepInputError(`"${tag}" is not a locale`);
  }
}

/**
 * Regions whose first week of the year is the first with four days in it (CLDR's weekData
 * minDays, which Intl no longer reports); everywhere else a single day makes it.
 */
const FOUR_DAY_FIRST_WEEK_REGIONS = new Set(
  'AD AN AT AX BE BG CH CZ DE DK EE ES FI FJ FO FR GB GF GG GI GP GR HU IE IM IS IT JE LI LT LU MC MQ NL NO PL PT RE RU SE SJ SK SM VA'.split(' '),
);

function localeOf(tag: string): DateLocale {
  const locale = new Intl.Locale(tag) as Intl.Locale & { getWeekInfo?: () => { firstDay: number } };
  const region = locale.maximize().region ?? 'US';
  return {
    tag,
    week: { firstDay: locale.getWeekInfo?.().firstDay ?? 7, minimalDays: FOUR_DAY_FIRST_WEEK_REGIONS.has(region) ? 4 : 1 },
  };
}

export interface DateAdjustments {
  readonly setYear?: number | undefined;
  readonly setMonth?: number | undefined;
  readonly setDay?: number | undefined;
  readonly setHour?: number | undefined;
  readonly setMinute?: number | undefined;
  readonly setSecond?: number | undefined;
  readonly addYears?: number | undefined;
  readonly addMonths?: number | undefined;
  readonly addDays?: number | undefined;
  readonly addHours?: number | undefined;
  readonly addMinutes?: number | undefined;
  readonly addSeconds?: number | undefined;
}

/**
 * Set* first, then Add*, in the date's own zone, as on a lenient Java Calendar: setting day 31 of
 * a 30-day month moves on to the next month's first day; adding months keeps the day where the
 * month has it and takes the month's last day otherwise; days are calendar days (23 or 25 hours
 * across a change of daylight saving time), hours, minutes and seconds elapsed time.
 */
export function adjustDate(date: DateTime, adjustments: DateAdjustments): DateTime {
  let result = date;
  const { setYear, setMonth, setDay, setHour, setMinute, setSecond } = adjustments;
  if ([setYear, setMonth, setDay, setHour, setMinute, setSecond].some((value) => value !== undefined)) {
    result = wallClock(
      {
        year: setYear ?? result.year,
        month: setMonth ?? result.month,
        day: setDay ?? result.day,
        hour: setHour ?? result.hour,
        minute: setMinute ?? result.minute,
        second: setSecond ?? result.second,
        millisecond: result.millisecond,
      },
      result,
    );
  }
  const steps: [keyof DateAdjustments, string][] = [
    ['addYears', 'years'],
    ['addMonths', 'months'],
    ['addDays', 'days'],
    ['addHours', 'hours'],
    ['addMinutes', 'minutes'],
    ['addSeconds', 'seconds'],
  ];
  for (const [name, unit] of steps) {
    const amount = adjustments[name];
    if (amount !== undefined && amount !== 0) result = result.plus({ [unit]: amount });
  }
  return checked(result);
}

/** A calendar date and time of day, as a wall clock shows it in some zone. */
export interface WallClockFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** The moment a wall clock shows in `like`'s zone and locale; fields past their range carry over, as Java's lenient Calendar does. */
export function wallClock(fields: WallClockFields, like: DateTime): DateTime {
  const normal = new Date(0);
  normal.setUTCFullYear(fields.year, fields.month - 1, fields.day);
  normal.setUTCHours(fields.hour, fields.minute, fields.second, fields.millisecond);
  if (Number.isNaN(normal.getTime())) throw new InvalidStepInputError('the resulting date is out of range');
  return checked(
    luxon().DateTime.fromObject(
      {
        year: normal.getUTCFullYear(),
        month: normal.getUTCMonth() + 1,
        day: normal.getUTCDate(),
        hour: normal.getUTCHours(),
        minute: normal.getUTCMinutes(),
        second: normal.getUTCSeconds(),
        millisecond: normal.getUTCMilliseconds(),
      },
      { zone: like.zone, locale: like.locale ?? 'en-US', outputCalendar: 'gregory', numberingSystem: 'latn' },
    ),
  );
}

/** JavaScript dates reach 275,760 years either side of 1970; luxon reports past that as invalid. */
function checked(date: DateTime): DateTime {
  if (!date.isValid) throw new InvalidStepInputError('the resulting date is out of range');
  return date;
}

export function fromEpochMs(epochMs: number, zone: Zone, localeTag: string): DateTime {
  return checked(luxon().DateTime.fromMillis(epochMs, { zone, locale: localeTag, outputCalendar: 'gregory', numberingSystem: 'latn' }));
}

const MAX_DATE_TEXT = 200;

/**
 * A date and time from text: epoch milliseconds (digits), ISO 8601, RFC 2822, HTTP dates, SQL
 * dates, or English forms such as "March 2, 2014", "2 Mar 2014 10:30", "3/2/2014 10:30 PM". A text
 * without a zone or offset is read in UTC.
 */
export function parseDateText(text: string): DateTime {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  if (trimmed === '' || trimmed.length > MAX_DATE_TEXT) throw notADate(text);
  const options = { zone: 'utc', setZone: true, locale: 'en-US' } as const;
  if (/^-?\d+$/.test(trimmed)) {
    const epochMs = Number(trimmed);
    if (Math.abs(epochMs) <= 8.64e15) return luxon().DateTime.fromMillis(epochMs, { zone: 'utc' });
    throw notADate(text);
  }
  const { DateTime } = luxon();
  for (const read of [DateTime.fromISO, DateTime.fromRFC2822, DateTime.fromHTTP, DateTime.fromSQL]) {
    const date = read(trimmed, options);
    if (date.isValid) return date;
  }
  const date = readEnglishDate(trimmed);
  if (date === undefined) throw notADate(text);
  return date;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAME =
  /\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?(?=\s|,|$|\d)/;
const WEEKDAY_NAME = /\b(mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:rs|rsday)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)\b\.?,?/;
const TIME = /(?:^|\s|,)(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?\s*(am|pm|a\.m\.|p\.m\.)?(?=\s|$)/;

/**
 * English dates as people write them, in UTC: "March 2, 2014", "2 Mar 2014", "Sunday, March 2nd
 * 2014 10:30 PM", "3/2/2014 22:30" (month first, as in the US), "2014/3/2", "2.3.2014" (day first).
 * Read with a few patterns rather than trying format after format: a text that is no date costs
 * microseconds to refuse.
 */
function readEnglishDate(text: string): DateTime | undefined {
  let rest = ` ${text.toLowerCase()} `.replace(/(\d)(st|nd|rd|th)\b/g, '$1').replace(WEEKDAY_NAME, ' ');
  let hour = 0;
  let minute = 0;
  let second = 0;
  let millisecond = 0;
  const time = TIME.exec(rest);
  if (time !== null) {
    hour = Number(time[1]);
    minute = Number(time[2]);
    second = Number(time[3] ?? '0');
    millisecond = Number((time[4] ?? '0').padEnd(3, '0'));
    const meridiem = time[5]?.[0];
    if (meridiem !== undefined) {
      if (hour < 1 || hour > 12) return undefined;
      hour = (hour % 12) + (meridiem === 'p' ? 12 : 0);
    }
    rest = rest.replace(TIME, ' ');
  }
  let year: number;
  let month: number;
  let day: number;
  const named = MONTH_NAME.exec(rest);
  if (named !== null) {
    month = MONTHS.indexOf((named[1] ?? '').slice(0, 3)) + 1;
    const numbers = rest.replace(MONTH_NAME, ' ').replace(/,/g, ' ').trim().split(/\s+/);
    if (numbers.length !== 2 || !numbers.every((item) => /^\d+$/.test(item))) return undefined;
    const [before = '', after = ''] = numbers;
    // "March 2 2014" or "2 March 2014": the four-digit one is the year.
    if (before.length === 4 && after.length <= 2) [year, day] = [Number(before), Number(after)];
    else if (after.length === 4 && before.length <= 2) [year, day] = [Number(after), Number(before)];
    else return undefined;
  } else {
    const numeric = rest.trim().replace(/,$/, '');
    const monthFirst = /^(\d{1,2})([/-])(\d{1,2})\2(\d{4})$/.exec(numeric);
    const yearFirst = /^(\d{4})([/.])(\d{1,2})\2(\d{1,2})$/.exec(numeric);
    const dayFirst = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(numeric);
    if (monthFirst !== null) [month, day, year] = [Number(monthFirst[1]), Number(monthFirst[3]), Number(monthFirst[4])];
    else if (yearFirst !== null) [year, month, day] = [Number(yearFirst[1]), Number(yearFirst[3]), Number(yearFirst[4])];
    else if (dayFirst !== null) [day, month, year] = [Number(dayFirst[1]), Number(dayFirst[2]), Number(dayFirst[3])];
    else return undefined;
  }
  const date = luxon().DateTime.fromObject({ year, month, day, hour, minute, second, millisecond }, { zone: 'utc' });
  return date.isValid ? date : undefined;
}

function notADate(text: string): InvalidStepInputError {
  return new InvalidStepInputError(
    `${JSON.stringify(text.trim().slice(0, 100))} is not a date this Choreo can read (use e.g. "March 2, 2014", "2014-03-02", "2014-03-02T10:30:00Z" or epoch milliseconds)`,
  );
}
