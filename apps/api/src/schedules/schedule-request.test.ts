import { describe, expect, it } from 'vitest';
import { checkScheduleDocument } from './schedule-request.ts';

describe('schedule document', () => {
  it('takes a cron schedule in a time zone, with defaults for what is left out', () => {
    expect(checkScheduleDocument({ choreo: '/Mine/Report', cron: '0 9 * * 1', timezone: 'Europe/Berlin', inputs: [{ name: 'Count', value: 3 }] })).toEqual({
      ok: true,
      paused: false,
      spec: {
        choreo: '/Mine/Report',
        inputs: [{ name: 'Count', value: '3' }],
        timing: { cron: '0 9 * * 1', timezone: 'Europe/Berlin' },
        overlap: 'skip',
        catchupWindowSeconds: 3_600,
      },
    });
  });

  it('takes an interval, paused, with its policy, window and note', () => {
    const checked = checkScheduleDocument({ choreo: '/Mine/Poll', every: '30s', overlap: 'allow-all', catchupWindowSeconds: 0, paused: true, note: 'held' });
    expect(checked).toMatchObject({
      ok: true,
      paused: true,
      spec: { timing: { everyMs: 30_000 }, overlap: 'allow-all', catchupWindowSeconds: 0, note: 'held' },
    });
  });

  it('says every problem at once, each at its JSON pointer', () => {
    const checked = checkScheduleDocument({
      choreo: 'relative',
      cron: '61 * * * *',
      timezone: 'Mars/Olympus',
      inputs: [{ name: 'A', value: {} }, { value: 'x' }],
      overlap: 'queue',
      catchupWindowSeconds: -1,
      paused: 'no',
      extra: 1,
    });
    expect(checked.ok).toBe(false);
    const pointers = checked.ok ? [] : checked.problems.map((problem) => problem.pointer);
    expect(pointers.sort()).toEqual(
      ['/catchupWindowSeconds', '/choreo', '/extra', '/inputs/0/value', '/inputs/1/name', '/overlap', '/paused', '/timezone'].sort(),
    );
  });

  it('refuses a bad cron expression, a bad duration, both or neither timing', () => {
    const pointersOf = (document: unknown) => {
      const checked = checkScheduleDocument(document);
      return checked.ok ? [] : checked.problems.map((problem) => problem.pointer);
    };
    expect(pointersOf({ choreo: '/A', cron: '61 * * * *' })).toEqual(['/cron']);
    expect(pointersOf({ choreo: '/A', cron: '* * *' })).toEqual(['/cron']);
    expect(pointersOf({ choreo: '/A', every: '5 minutes' })).toEqual(['/every']);
    expect(pointersOf({ choreo: '/A', every: '1s', cron: '* * * * *' })).toEqual(['']);
    expect(pointersOf({ choreo: '/A' })).toEqual(['']);
    expect(pointersOf([])).toEqual(['']);
  });
});
