import { describe, expect, it } from 'vitest';
import { runStep } from './run-step-for-test.ts';

const march2 = String(Date.UTC(2014, 2, 2, 10, 30, 15, 250));

describe('dates.format', () => {
  it('writes yyyy-MM-dd HH:mm:ss in UTC when no format or zone is given', async () => {
    expect(await runStep('dates.format', { timestamp: march2, format: '', timeZone: '' })).toEqual({ text: '2014-03-02 10:30:15', epochMs: Number(march2) });
  });

  it('formats in a zone and a locale', async () => {
    const args = { timestamp: march2, format: 'EEEE d MMMM yyyy HH:mm z', timeZone: 'Europe/Paris', localeLanguage: 'fr', localeCountry: 'FR' };
    expect(await runStep('dates.format', args)).toMatchObject({ text: 'dimanche 2 mars 2014 11:30 UTC+1' });
  });

  it.each([
    ['GMT+05:30', '16:00 +0530'],
    ['PST', '02:30 -0800'],
    ['utc', '10:30 +0000'],
    ['America/New_York', '05:30 -0500'],
  ])('reads the time zone %s', async (timeZone, text) => {
    expect(await runStep('dates.format', { timestamp: march2, format: 'HH:mm Z', timeZone })).toMatchObject({ text });
  });

  it('maps Java locale variants and counts weeks as the locale does', async () => {
    expect(await runStep('dates.format', { timestamp: march2, format: 'EEEE', localeLanguage: 'no', localeCountry: 'NO', localeVariant: 'NY' })).toMatchObject({
      text: 'søndag',
    });
    // 2014-03-02 is a Sunday: the first day of week 10 in the US, the last of week 9 in Germany.
    expect(await runStep('dates.format', { timestamp: march2, format: 'w' })).toMatchObject({ text: '10' });
    expect(await runStep('dates.format', { timestamp: march2, format: 'w', localeLanguage: 'de', localeCountry: 'DE' })).toMatchObject({ text: '9' });
  });

  it('sets fields before adding, leniently as a Java Calendar', async () => {
    const base = { timestamp: march2, format: 'yyyy-MM-dd HH:mm:ss' };
    expect(await runStep('dates.format', { ...base, setMonth: '4', setDay: '31' })).toMatchObject({ text: '2014-05-01 10:30:15' });
    expect(await runStep('dates.format', { ...base, setDay: '31', setMonth: '1', addMonths: '1' })).toMatchObject({ text: '2014-02-28 10:30:15' });
    expect(await runStep('dates.format', { ...base, setYear: '1989', addYears: '-1', addHours: '-11', addMinutes: '30', addSeconds: '-15' })).toMatchObject({
      text: '1988-03-02 00:00:00',
    });
  });

  it('adds calendar days across a change of daylight saving time, hours as elapsed time', async () => {
    const beforeChange = String(Date.UTC(2014, 2, 8, 17)); // 2014-03-08 12:00 in New York, a day before clocks went forward
    const base = { timestamp: beforeChange, format: 'yyyy-MM-dd HH:mm', timeZone: 'America/New_York' };
    expect(await runStep('dates.format', { ...base, addDays: '1' })).toMatchObject({ text: '2014-03-09 12:00' });
    expect(await runStep('dates.format', { ...base, addHours: '24' })).toMatchObject({ text: '2014-03-09 13:00' });
  });

  it('formats now when no timestamp is given', async () => {
    const before = Date.now();
    const { epochMs } = (await runStep('dates.format', { timestamp: '' })) as { epochMs: number };
    expect(epochMs).toBeGreaterThanOrEqual(before);
    expect(epochMs).toBeLessThanOrEqual(Date.now());
  });

  it.each([
    [{ timeZone: 'Mars/Olympus' }, 'not a known time zone'],
    [{ localeLanguage: 'english' }, 'not an ISO language code'],
    [{ localeCountry: 'USA' }, 'not an ISO country code'],
    [{ format: 'yyyy-MM-ddTHH' }, "illegal pattern character 'T'"],
    [{ timestamp: 'yesterday-ish' }, 'is not a date'],
    [{ setYear: '300000' }, '<=270000'],
  ])('refuses %j clearly', async (args, message) => {
    await expect(runStep('dates.format', { timestamp: march2, ...args })).rejects.toThrow(message);
  });

  it('refuses a Set value out of its range and a fraction', async () => {
    await expect(runStep('dates.format', { setMonth: '13' })).rejects.toThrow();
    await expect(runStep('dates.format', { addDays: '1.5' })).rejects.toThrow(/whole number/);
  });
});

describe('dates.timestamp', () => {
  it.each([
    ['March 2, 2014', '1393718400000'],
    ['march 2nd, 2014', '1393718400000'],
    ['Sunday, March 2, 2014', '1393718400000'],
    ['2 Mar 2014 10:30', '1393756200000'],
    ['3/2/2014 10:30 PM', '1393799400000'],
    ['2014-03-02', '1393718400000'],
    ['2014-03-02T10:30:00+01:00', '1393752600000'],
    ['Sun, 02 Mar 2014 10:30:00 GMT', '1393756200000'],
    ['2014-03-02 10:30:00', '1393756200000'],
    ['1393718400000', '1393718400000'],
  ])('reads %j', async (date, timestamp) => {
    expect(await runStep('dates.timestamp', { date })).toEqual({ timestamp });
  });

  it('gives seconds when asked, after adjustments', async () => {
    expect(await runStep('dates.timestamp', { date: 'March 2, 2014', granularity: 'Seconds', addDays: '1', setHour: '6' })).toEqual({
      timestamp: String(Date.UTC(2014, 2, 3, 6) / 1000),
    });
  });

  it('is now when no date is given', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { timestamp } = (await runStep('dates.timestamp', { granularity: 'seconds' })) as { timestamp: string };
    expect(Number(timestamp)).toBeGreaterThanOrEqual(before);
    expect(timestamp).toMatch(/^\d{10}$/);
  });

  it.each(['', 'not a date', '31/31/2014', 'x'.repeat(150)])('refuses %j', async (date) => {
    await expect(runStep('dates.difference', { earlier: date, later: '2014-03-02' })).rejects.toMatchObject({ retryable: false });
  });

  it('refuses an unknown granularity', async () => {
    await expect(runStep('dates.timestamp', { date: '2014-03-02', granularity: 'minutes' })).rejects.toThrow(/milliseconds, seconds/);
  });
});

describe('dates.timestamp-from-parts', () => {
  it('builds a UTC date, the time 0 by default', async () => {
    expect(await runStep('dates.timestamp-from-parts', { year: '2014', month: '3', day: '2' })).toEqual({ timestamp: '1393718400000' });
    expect(
      await runStep('dates.timestamp-from-parts', {
        year: '2014',
        month: '3',
        day: '2',
        hour: '10',
        minute: '30',
        second: '15',
        millisecond: '250',
        granularity: '',
      }),
    ).toEqual({ timestamp: march2 });
  });

  it("carries a day past the month's end over, and takes today's date for missing parts", async () => {
    expect(await runStep('dates.timestamp-from-parts', { year: '2014', month: '2', day: '31', granularity: 'seconds' })).toEqual({
      timestamp: String(Date.UTC(2014, 2, 3) / 1000),
    });
    const today = new Date();
    const { timestamp } = (await runStep('dates.timestamp-from-parts', { hour: '1' })) as { timestamp: string };
    expect(timestamp).toBe(String(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 1)));
  });

  it('refuses parts out of range', async () => {
    await expect(runStep('dates.timestamp-from-parts', { year: '2014', month: '0', day: '1' })).rejects.toThrow();
    await expect(runStep('dates.timestamp-from-parts', { year: 'MMXIV', month: '1', day: '1' })).rejects.toThrow(/whole number/);
  });
});

describe('dates.difference', () => {
  it('subtracts the earlier date from the later one, in milliseconds', async () => {
    expect(await runStep('dates.difference', { earlier: 'March 2, 2014', later: 'March 3, 2014' })).toEqual({ milliseconds: '86400000' });
    expect(await runStep('dates.difference', { earlier: '2014-03-03T00:00:00Z', later: '2014-03-02T23:00:00-02:00' })).toEqual({ milliseconds: '3600000' });
    expect(await runStep('dates.difference', { earlier: 'March 3, 2014', later: 'March 2, 2014' })).toEqual({ milliseconds: '-86400000' });
  });
});
