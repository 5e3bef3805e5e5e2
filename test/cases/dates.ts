import type { ChoreoCase } from './choreo-case.ts';

// 2014-03-02T10:30:15.250Z, a Sunday.
const march2 = '1393756215250';
const family = 'Dates';

function expectNear(actual: string | undefined, expected: number, tolerance: number, what: string) {
  if (actual === undefined || !/^\d+$/.test(actual) || Math.abs(Number(actual) - expected) > tolerance) {
    throw new Error(`${what}: expected about ${expected}, got ${actual}`);
  }
}

export const cases: ChoreoCase[] = [
  { family, choreo: 'GetDate', inputs: { Timestamp: march2 }, outputs: { FormattedDate: '2014-03-02 10:30:15' } },
  {
    family,
    choreo: 'GetDate',
    name: 'Java pattern, time zone, locale, Set and Add',
    inputs: {
      Timestamp: march2,
      Format: "EEEE d MMMM yyyy 'à' HH:mm:ss.SSS XXX",
      TimeZone: 'Europe/Paris',
      LocaleLanguage: 'fr',
      LocaleCountry: 'FR',
      SetDay: '31',
      AddMonths: '1',
    },
    // Day 31 of March, then a month on: the 30th of April, in summer time.
    outputs: { FormattedDate: 'mercredi 30 avril 2014 à 11:30:15.250 +02:00' },
  },
  {
    family,
    choreo: 'GetDate',
    name: "Java's documented example",
    inputs: { Timestamp: '994273736235', Format: "yyyy.MM.dd G 'at' HH:mm:ss z", TimeZone: 'America/Los_Angeles' },
    outputs: { FormattedDate: '2001.07.04 AD at 12:08:56 PDT' },
  },
  { family, choreo: 'GetDate', name: 'now, by default', inputs: { Format: 'yyyy' }, outputs: { FormattedDate: String(new Date().getUTCFullYear()) } },
  {
    family,
    choreo: 'GetDate',
    name: 'an illegal pattern letter',
    inputs: { Timestamp: march2, Format: 'yyyy-MM-ddTHH' },
    error: /^format: the date format has the illegal pattern character 'T'/,
  },
  {
    family,
    choreo: 'GetDateDifference',
    inputs: { EarlierDate: 'March 2, 2014', LaterDate: 'March 3, 2014 10:30 AM' },
    outputs: { Difference: String(34.5 * 3_600_000) },
  },
  {
    family,
    choreo: 'GetDateDifference',
    name: 'a whole day',
    inputs: { EarlierDate: 'March 2, 2014', LaterDate: 'March 3, 2014' },
    outputs: { Difference: '86400000' },
  },
  {
    family,
    choreo: 'GetDateDifference',
    name: 'a date it cannot read',
    inputs: { EarlierDate: 'soon', LaterDate: 'March 3, 2014' },
    error: /^difference: "soon" is not a date/,
  },
  {
    family,
    choreo: 'GetTimestamp',
    inputs: { Granularity: 'seconds', SetYear: '2014', SetMonth: '3', SetDay: '2', SetHour: '0', SetMinute: '0', SetSecond: '0', AddDays: '1' },
    outputs: { Timestamp: '1393804800' },
  },
  { family, choreo: 'GetTimestamp', name: 'now, in milliseconds', inputs: {}, outputs: { Timestamp: /^\d{13}$/ } },
  {
    family,
    choreo: 'GetTimestamp',
    name: 'now, in seconds',
    inputs: { Granularity: 'seconds' },
    check: (outputs) => expectNear(outputs.Timestamp, Date.now() / 1000, 120, 'Timestamp in seconds'),
  },
  {
    family,
    choreo: 'GetTimestamp',
    name: 'a day ago, in milliseconds',
    inputs: { AddDays: '-1' },
    check: (outputs) => expectNear(outputs.Timestamp, Date.now() - 86_400_000, 120_000, 'Timestamp a day ago'),
  },
  {
    family,
    choreo: 'GetTimestampFromDateParameters',
    inputs: { Year: '2014', Month: '3', Day: '2', Hour: '10', Minute: '30', Second: '15', Milliseconds: '250' },
    outputs: { Timestamp: march2 },
  },
  {
    family,
    choreo: 'GetTimestampFromDateParameters',
    name: 'in seconds',
    inputs: { Year: '2014', Month: '3', Day: '2', Granularity: 'seconds' },
    outputs: { Timestamp: '1393718400' },
  },
  {
    family,
    choreo: 'GetTimestampFromDateParameters',
    name: 'a month out of range',
    inputs: { Year: '2014', Month: '13', Day: '2' },
    error: /^timestamp: invalid arguments: .*month/,
  },
  { family, choreo: 'GetTimestampFromDateString', inputs: { Date: 'March 2, 2014' }, outputs: { Timestamp: '1393718400000' } },
  {
    family,
    choreo: 'GetTimestampFromDateString',
    name: 'in seconds',
    inputs: { Date: 'March 2, 2014', Granularity: 'seconds' },
    outputs: { Timestamp: '1393718400' },
  },
  {
    family,
    choreo: 'GetTimestampFromDateString',
    name: 'ISO 8601 with an offset, adjusted',
    inputs: { Date: '2014-03-02T10:30:15.250+01:00', AddHours: '1' },
    outputs: { Timestamp: march2 },
  },
  {
    family,
    choreo: 'GetTimestampFromDateString',
    name: 'adjusted, in seconds',
    inputs: { Date: '2014-03-02T10:30:15Z', SetHour: '0', SetMinute: '0', SetSecond: '0', AddDays: '1', Granularity: 'seconds' },
    outputs: { Timestamp: '1393804800' },
  },
  { family, choreo: 'GetTimestampFromDateString', name: 'not a date', inputs: { Date: 'someday' }, error: /is not a date/ },

  // The service's own Dates Choreos, which the SDK has no class for.
  {
    family,
    choreo: 'AddToDate',
    inputs: { Date: '2024-01-31T00:00:00Z', Amount: '1' },
    outputs: { ISO8601: '2024-02-01T00:00:00.000Z', EpochMilliseconds: '1706745600000' },
    only: 'engine',
  },
  {
    family,
    choreo: 'FormatDate',
    inputs: { Date: '0', Format: 'yyyy-MM-dd HH:mm', TimeZone: 'Asia/Kolkata' },
    outputs: { FormattedDate: '1970-01-01 05:30' },
    only: 'engine',
  },
  {
    family,
    choreo: 'GetCurrentTime',
    inputs: {},
    outputs: { EpochMilliseconds: /^\d{13}$/, EpochSeconds: /^\d{10}$/, ISO8601: /^\d{4}-\d\d-\d\dT/ },
    only: 'engine',
  },
  {
    family,
    choreo: 'ParseDate',
    inputs: { Date: 'Tue, 14 Nov 2023 22:13:20 GMT' },
    outputs: { EpochMilliseconds: '1700000000000', ISO8601: '2023-11-14T22:13:20.000Z' },
    only: 'engine',
  },
];
