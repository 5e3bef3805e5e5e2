import type { SdkCase } from '../../support/sdk-case.ts';

// 2014-03-02T10:30:15.250Z, a Sunday.
const march2 = '1393756215250';

function expectNear(actual: string | undefined, expected: number, tolerance: number, what: string) {
  if (actual === undefined || !/^\d+$/.test(actual) || Math.abs(Number(actual) - expected) > tolerance) {
    throw new Error(`${what}: expected about ${expected}, got ${actual}`);
  }
}

export const cases: SdkCase[] = [
  { family: 'Dates', choreo: 'GetDate', inputs: { Timestamp: march2 }, expect: { FormattedDate: '2014-03-02 10:30:15' } },
  {
    family: 'Dates',
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
    expect: { FormattedDate: 'mercredi 30 avril 2014 à 11:30:15.250 +02:00' },
  },
  {
    family: 'Dates',
    choreo: 'GetDate',
    name: "Java's documented example",
    inputs: { Timestamp: '994273736235', Format: "yyyy.MM.dd G 'at' HH:mm:ss z", TimeZone: 'America/Los_Angeles' },
    expect: { FormattedDate: '2001.07.04 AD at 12:08:56 PDT' },
  },
  {
    family: 'Dates',
    choreo: 'GetDate',
    name: 'an illegal pattern letter',
    inputs: { Timestamp: march2, Format: 'yyyy-MM-ddTHH' },
    error: /illegal pattern character 'T'/,
  },
  { family: 'Dates', choreo: 'GetDateDifference', inputs: { EarlierDate: 'March 2, 2014', LaterDate: 'March 3, 2014' }, expect: { Difference: '86400000' } },
  {
    family: 'Dates',
    choreo: 'GetTimestamp',
    inputs: { Granularity: 'seconds' },
    check: (outputs) => expectNear(outputs.Timestamp, Date.now() / 1000, 120, 'Timestamp in seconds'),
  },
  {
    family: 'Dates',
    choreo: 'GetTimestamp',
    name: 'adjusted, in milliseconds',
    inputs: { AddDays: '-1' },
    check: (outputs) => expectNear(outputs.Timestamp, Date.now() - 86_400_000, 120_000, 'Timestamp a day ago'),
  },
  {
    family: 'Dates',
    choreo: 'GetTimestampFromDateParameters',
    inputs: { Year: '2014', Month: '3', Day: '2', Hour: '10', Minute: '30', Second: '15', Milliseconds: '250' },
    expect: { Timestamp: march2 },
  },
  {
    family: 'Dates',
    choreo: 'GetTimestampFromDateParameters',
    name: 'in seconds',
    inputs: { Year: '2014', Month: '3', Day: '2', Granularity: 'seconds' },
    expect: { Timestamp: '1393718400' },
  },
  { family: 'Dates', choreo: 'GetTimestampFromDateString', inputs: { Date: 'March 2, 2014' }, expect: { Timestamp: '1393718400000' } },
  {
    family: 'Dates',
    choreo: 'GetTimestampFromDateString',
    name: 'adjusted, in seconds',
    inputs: { Date: '2014-03-02T10:30:15Z', SetHour: '0', SetMinute: '0', SetSecond: '0', AddDays: '1', Granularity: 'seconds' },
    expect: { Timestamp: '1393804800' },
  },
  { family: 'Dates', choreo: 'GetTimestampFromDateString', name: 'not a date', inputs: { Date: 'someday' }, error: /is not a date/ },
];
