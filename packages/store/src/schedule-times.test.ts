import { describe, expect, it } from 'vitest';
import { parseDuration, ticksAfter, timingProblem } from './schedule-times.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number[]) => ms.map((time) => new Date(time).toISOString());

describe('schedule times', () => {
  it('every Monday at 9 in Berlin stays at 9 local time across the spring daylight saving change', () => {
    const ticks = ticksAfter({ cron: '0 9 * * 1', timezone: 'Europe/Berlin' }, at('2026-03-20T00:00:00Z'), 2);
    expect(iso(ticks)).toEqual(['2026-03-23T08:00:00.000Z', '2026-03-30T07:00:00.000Z']);
  });

  it('a daily tick in the hour that does not exist in spring fires once, an hour later in local time', () => {
    const ticks = ticksAfter({ cron: '30 2 * * *', timezone: 'Europe/Berlin' }, at('2026-03-28T00:00:00Z'), 3);
    expect(iso(ticks)).toEqual(['2026-03-28T01:30:00.000Z', '2026-03-29T01:30:00.000Z', '2026-03-30T00:30:00.000Z']);
  });

  it('in autumn, a tick in the repeated hour fires once per day', () => {
    const ticks = ticksAfter({ cron: '30 2 * * *', timezone: 'Europe/Berlin' }, at('2026-10-24T12:00:00Z'), 3);
    expect(iso(ticks)).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z', '2026-10-27T01:30:00.000Z']);
  });

  it('takes 6 fields with seconds first', () => {
    expect(ticksAfter({ cron: '*/15 * * * * *', timezone: 'UTC' }, at('2026-01-01T00:00:01Z'), 2)).toEqual([
      at('2026-01-01T00:00:15Z'),
      at('2026-01-01T00:00:30Z'),
    ]);
  });

  it('aligns intervals on the epoch, so every process computes the same ticks', () => {
    expect(ticksAfter({ everyMs: 60_000 }, 90_500, 3)).toEqual([120_000, 180_000, 240_000]);
    expect(ticksAfter({ everyMs: 1_000 }, 2_000, 1)).toEqual([3_000]);
  });

  it('reads durations', () => {
    expect([parseDuration('1s'), parseDuration('30s'), parseDuration('5m'), parseDuration('1h')]).toEqual([1_000, 30_000, 300_000, 3_600_000]);
    expect([parseDuration('0s'), parseDuration('5 m'), parseDuration('1y')]).toEqual([undefined, undefined, undefined]);
  });

  it('says what is wrong with a timing', () => {
    expect(timingProblem({ cron: '0 9 * * 1', timezone: 'Europe/Berlin' })).toBeUndefined();
    expect(timingProblem({ cron: '0 9 * * 1', timezone: 'Mars/Olympus' })?.field).toBe('timezone');
    expect(timingProblem({ cron: '0 9 * *', timezone: 'UTC' })?.field).toBe('cron');
    expect(timingProblem({ cron: '99 9 * * 1', timezone: 'UTC' })?.field).toBe('cron');
    expect(timingProblem({ everyMs: 10 })?.field).toBe('every');
  });
});
