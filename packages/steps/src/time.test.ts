import { afterEach, describe, expect, it, vi } from 'vitest';
import { runStep } from './run-step-for-test.ts';

const moment = { epochMs: 1700000000123, epochSeconds: 1700000000, iso: '2023-11-14T22:13:20.123Z' };

describe('time steps', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('time.now reads the clock', async () => {
    vi.useFakeTimers({ now: moment.epochMs });
    expect(await runStep('time.now', {})).toEqual(moment);
  });

  it.each([
    ['1700000000123', 'auto'],
    ['2023-11-14T22:13:20.123Z', 'auto'],
    ['2023-11-14T23:13:20.123+01:00', 'auto'],
    ['1700000000.123', 'epoch-seconds'],
  ])('time.parse reads %s (%s)', async (text, format) => {
    expect(await runStep('time.parse', { text, format })).toEqual(moment);
  });

  it('time.parse refuses what it cannot read', async () => {
    await expect(runStep('time.parse', { text: 'next tuesday' })).rejects.toMatchObject({ retryable: false });
  });

  it.each([
    ['iso', 'UTC', '2023-11-14T22:13:20.123Z'],
    ['iso', 'Europe/Paris', '2023-11-14T23:13:20.123+01:00'],
    ['epoch-seconds', 'UTC', '1700000000'],
    ['rfc1123', 'UTC', 'Tue, 14 Nov 2023 22:13:20 GMT'],
    ["yyyy-MM-dd HH:mm:ss.SSS 'at' XXX", 'UTC', '2023-11-14 22:13:20.123 at Z'],
    ['EEEE d MMMM yy, h:mm a Z', 'America/New_York', 'Tuesday 14 November 23, 5:13 PM -0500'],
    ['EEE MMM dd', 'Asia/Tokyo', 'Wed Nov 15'],
  ])('time.format %s in %s', async (format, timeZone, text) => {
    expect(await runStep('time.format', { time: String(moment.epochMs), format, timeZone })).toEqual({ text });
  });

  it.each([
    ['0050-06-01T00:00:00Z', 'yyyy-MM-dd XXX', 'UTC', '0050-06-01 Z'],
    ['0050-06-01T00:00:00Z', 'yyyy-MM-dd HH:mm XXX', 'Etc/GMT-9', '0050-06-01 09:00 +09:00'],
    ['-000001-06-01T00:00:00Z', 'yyyy-MM-dd', 'UTC', '-0001-06-01'],
    ['0000-01-01T00:00:00Z', 'yyyy-MM-dd', 'UTC', '0000-01-01'],
  ])('time.format %s as %s in %s, before year 100', async (time, format, timeZone, text) => {
    expect(await runStep('time.format', { time, format, timeZone })).toEqual({ text });
  });

  it('time.format refuses an unknown time zone', async () => {
    await expect(runStep('time.format', { time: '0', timeZone: 'Mars/Olympus' })).rejects.toThrow(/not a known time zone/);
  });

  it('time.add adds and subtracts', async () => {
    expect(await runStep('time.add', { time: '2024-02-28T12:00:00Z', amount: '2', unit: 'days' })).toMatchObject({ iso: '2024-03-01T12:00:00.000Z' });
    expect(await runStep('time.add', { time: '2024-01-01T00:00:00Z', amount: -90, unit: 'minutes' })).toMatchObject({ iso: '2023-12-31T22:30:00.000Z' });
  });
});
