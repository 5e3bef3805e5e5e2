import { expect } from 'vitest';
import type { CatalogueCase } from './catalogue-case.ts';

// 2014-03-02T10:30:15.250Z, a Sunday.
const march2 = '1393756215250';

export function datesCases(): CatalogueCase[] {
  return [
    { choreo: 'Dates/GetDate', inputs: { Timestamp: march2 }, outputs: { FormattedDate: '2014-03-02 10:30:15' } },
    {
      choreo: 'Dates/GetDate',
      name: 'pattern, zone, locale and adjustments',
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
    { choreo: 'Dates/GetDate', name: 'now, by default', inputs: { Format: 'yyyy' }, outputs: { FormattedDate: String(new Date().getUTCFullYear()) } },
    {
      choreo: 'Dates/GetDate',
      name: 'an unknown pattern letter',
      inputs: { Timestamp: march2, Format: 'yyyy-MM-ddTHH' },
      error: /^format: the date format has the illegal pattern character 'T'/,
    },
    {
      choreo: 'Dates/GetDateDifference',
      inputs: { EarlierDate: 'March 2, 2014', LaterDate: 'March 3, 2014 10:30 AM' },
      outputs: { Difference: String(34.5 * 3_600_000) },
    },
    {
      choreo: 'Dates/GetDateDifference',
      name: 'a date it cannot read',
      inputs: { EarlierDate: 'soon', LaterDate: 'March 3, 2014' },
      error: /^difference: "soon" is not a date/,
    },
    {
      choreo: 'Dates/GetTimestamp',
      inputs: { Granularity: 'seconds', SetYear: '2014', SetMonth: '3', SetDay: '2', SetHour: '0', SetMinute: '0', SetSecond: '0', AddDays: '1' },
      outputs: { Timestamp: '1393804800' },
    },
    { choreo: 'Dates/GetTimestamp', name: 'now, in milliseconds', inputs: {}, outputs: { Timestamp: expect.stringMatching(/^\d{13}$/) } },
    {
      choreo: 'Dates/GetTimestampFromDateParameters',
      inputs: { Year: '2014', Month: '3', Day: '2', Hour: '10', Minute: '30', Second: '15', Milliseconds: '250' },
      outputs: { Timestamp: march2 },
    },
    {
      choreo: 'Dates/GetTimestampFromDateParameters',
      name: 'a month out of range',
      inputs: { Year: '2014', Month: '13', Day: '2' },
      error: /^timestamp: invalid arguments: .*month/,
    },
    { choreo: 'Dates/GetTimestampFromDateString', inputs: { Date: 'March 2, 2014', Granularity: 'seconds' }, outputs: { Timestamp: '1393718400' } },
    {
      choreo: 'Dates/GetTimestampFromDateString',
      name: 'ISO 8601 with an offset, adjusted',
      inputs: { Date: '2014-03-02T10:30:15.250+01:00', AddHours: '1' },
      outputs: { Timestamp: march2 },
    },
  ];
}
