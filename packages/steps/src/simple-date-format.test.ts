import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { formatSimpleDate, parseSimpleDatePattern, type WeekRules } from './simple-date-format.ts';

const US: WeekRules = { firstDay: 7, minimalDays: 1 };
const ISO: WeekRules = { firstDay: 1, minimalDays: 4 };

const at = (iso: string, zone: string, locale = 'en-US') => DateTime.fromISO(iso, { zone, locale, outputCalendar: 'gregory', numberingSystem: 'latn' });

// The moment of the examples in Java's SimpleDateFormat documentation: 2001-07-04 12:08:56.235 in Pacific time.
const javaExample = at('2001-07-04T12:08:56.235-07:00', 'America/Los_Angeles');

describe('formatSimpleDate', () => {
  it.each([
    ["yyyy.MM.dd G 'at' HH:mm:ss z", '2001.07.04 AD at 12:08:56 PDT'],
    ["EEE, MMM d, ''yy", "Wed, Jul 4, '01"],
    ['h:mm a', '12:08 PM'],
    ["hh 'o''clock' a, zzzz", "12 o'clock PM, Pacific Daylight Time"],
    ['K:mm a, z', '0:08 PM, PDT'],
    ['yyyyy.MMMMM.dd GGG hh:mm aaa', '02001.July.04 AD 12:08 PM'],
    ['EEE, d MMM yyyy HH:mm:ss Z', 'Wed, 4 Jul 2001 12:08:56 -0700'],
    ['yyMMddHHmmssZ', '010704120856-0700'],
    ["yyyy-MM-dd'T'HH:mm:ss.SSSZ", '2001-07-04T12:08:56.235-0700'],
    ["yyyy-MM-dd'T'HH:mm:ss.SSSXXX", '2001-07-04T12:08:56.235-07:00'],
    ["YYYY-'W'ww-u", '2001-W27-3'],
  ])('writes %j as Java documents it: %j', (pattern, expected) => {
    expect(formatSimpleDate(javaExample, pattern, US)).toBe(expected);
  });

  it.each([
    // letter, count, moment, expected
    ['G', 4, '2001-07-04T00:00:00Z', 'AD'],
    ['y', 1, '0005-03-01T00:00:00Z', '5'],
    ['y', 3, '0005-03-01T00:00:00Z', '005'],
    ['y', 2, '2009-03-01T00:00:00Z', '09'],
    ['M', 1, '2001-03-01T00:00:00Z', '3'],
    ['M', 2, '2001-03-01T00:00:00Z', '03'],
    ['L', 3, '2001-03-01T00:00:00Z', 'Mar'],
    ['L', 4, '2001-03-01T00:00:00Z', 'March'],
    ['D', 3, '2001-02-01T00:00:00Z', '032'],
    ['d', 1, '2001-02-01T00:00:00Z', '1'],
    ['F', 1, '2001-02-15T00:00:00Z', '3'],
    ['E', 4, '2001-02-15T00:00:00Z', 'Thursday'],
    ['E', 1, '2001-02-15T00:00:00Z', 'Thu'],
    ['u', 1, '2001-02-18T00:00:00Z', '7'],
    ['a', 1, '2001-02-18T00:30:00Z', 'AM'],
    ['H', 2, '2001-02-18T00:30:00Z', '00'],
    ['k', 1, '2001-02-18T00:30:00Z', '24'],
    ['k', 2, '2001-02-18T13:30:00Z', '13'],
    ['K', 1, '2001-02-18T12:30:00Z', '0'],
    ['h', 1, '2001-02-18T00:30:00Z', '12'],
    ['h', 2, '2001-02-18T09:30:00Z', '09'],
    ['m', 1, '2001-02-18T09:05:00Z', '5'],
    ['s', 2, '2001-02-18T09:05:07Z', '07'],
    ['S', 1, '2001-02-18T09:05:07.045Z', '45'],
    ['S', 3, '2001-02-18T09:05:07.045Z', '045'],
    ['S', 4, '2001-02-18T09:05:07.045Z', '0045'],
    ['z', 1, '2001-02-18T09:05:07Z', 'UTC'],
    ['z', 4, '2001-02-18T09:05:07Z', 'Coordinated Universal Time'],
    ['Z', 1, '2001-02-18T09:05:07Z', '+0000'],
    ['X', 1, '2001-02-18T09:05:07Z', 'Z'],
  ])('%s×%i at %s gives %j', (letter, count, iso, expected) => {
    expect(formatSimpleDate(at(iso as string, 'UTC'), (letter as string).repeat(count as number), US)).toBe(expected);
  });

  it('counts years before 1 back from it, with the era', () => {
    expect(formatSimpleDate(at('2001-03-01T00:00:00Z', 'UTC').set({ year: -1 }), 'yyyy G', US)).toBe('0002 BC');
  });

  it('names fixed offsets as Java names custom zones', () => {
    const plusFive = DateTime.fromISO('2001-02-18T09:05:07Z', { zone: 'UTC+5:30', locale: 'en-US' });
    expect(formatSimpleDate(plusFive, 'HH:mm z|zzzz', US)).toBe('14:35 GMT+05:30|GMT+05:30');
  });

  it('writes ISO 8601 offsets with one, two and three X, half hours included', () => {
    const kolkata = at('2001-02-18T09:05:07Z', 'Asia/Kolkata');
    expect(formatSimpleDate(kolkata, 'X|XX|XXX|Z', US)).toBe('+05|+0530|+05:30|+0530');
    expect(formatSimpleDate(at('2001-02-18T09:05:07Z', 'America/St_Johns'), 'XXX', US)).toBe('-03:30');
  });

  it('counts weeks by the locale: the US from Sunday with any first week, ISO from Monday with four days', () => {
    // 2021-01-01 is a Friday; 2021-01-03 a Sunday.
    const newYear = at('2021-01-01T12:00:00Z', 'UTC');
    expect(formatSimpleDate(newYear, 'Y w W', US)).toBe('2021 1 1');
    expect(formatSimpleDate(newYear, 'Y w W', ISO)).toBe('2020 53 0');
    const sunday = at('2021-01-03T12:00:00Z', 'UTC');
    expect(formatSimpleDate(sunday, 'Y w W', US)).toBe('2021 2 2');
    expect(formatSimpleDate(sunday, 'Y w W', ISO)).toBe('2020 53 0');
    // 2024-12-30 is a Monday: ISO week 1 of 2025; in the US the week of 2024-12-29, which holds 2025-01-01.
    const monday = at('2024-12-30T12:00:00Z', 'UTC');
    expect(formatSimpleDate(monday, 'YYYY-ww', ISO)).toBe('2025-01');
    expect(formatSimpleDate(monday, 'YYYY-ww', US)).toBe('2025-01');
    expect(formatSimpleDate(at('2024-06-15T12:00:00Z', 'UTC'), 'w', ISO)).toBe('24');
  });

  it('names months, weekdays and eras in the locale', () => {
    const date = at('2014-03-02T10:00:00Z', 'Europe/Paris', 'fr-FR');
    expect(formatSimpleDate(date, 'EEEE d MMMM yyyy G', ISO)).toBe('dimanche 2 mars 2014 ap. J.-C.');
    expect(formatSimpleDate(at('2014-03-02T10:00:00Z', 'UTC', 'de-DE'), 'EEE, d. MMM', ISO)).toBe('So., 2. März');
    expect(formatSimpleDate(at('2014-03-02T10:00:00Z', 'UTC', 'ja-JP'), 'yyyy年M月d日 EEEE', ISO)).toBe('2014年3月2日 日曜日');
  });

  it('keeps non-letters, quoted text and doubled quotes literal', () => {
    expect(formatSimpleDate(javaExample, "'Today is' EEEE, '''quoted''' 'it''s' — ✓ 日", US)).toBe("Today is Wednesday, 'quoted' it's — ✓ 日");
    expect(formatSimpleDate(javaExample, '', US)).toBe('');
  });
});

describe('parseSimpleDatePattern', () => {
  it('splits runs of letters and literal text', () => {
    expect(parseSimpleDatePattern("yyyy-MM'T'")).toEqual([{ letter: 'y', count: 4 }, { literal: '-' }, { letter: 'M', count: 2 }, { literal: 'T' }]);
  });

  it.each([
    ['yyyy-MM-dd q', "illegal pattern character 'q'"],
    ['T', "illegal pattern character 'T'"],
    ["'open", 'unterminated quote'],
    ['XXXX', 'X, XX and XXX'],
    ['y'.repeat(501), 'longer than 500'],
  ])('refuses %j', (pattern, message) => {
    expect(() => parseSimpleDatePattern(pattern)).toThrow(message);
  });
});
