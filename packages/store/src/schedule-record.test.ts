import { describe, expect, it } from 'vitest';
import { decodeSpec, encodeSpec, specPieces } from './schedule-record.ts';
import type { ScheduleSpec } from './schedule.ts';

describe('schedule record', () => {
  const base: ScheduleSpec = {
    choreo: '/Library/Utilities/Encoding/Base64Encode',
    inputs: [],
    timing: { everyMs: 60_000 },
    overlap: 'skip',
    catchupWindowSeconds: 3_600,
  };

  it('leaves out what is default and shortens the library prefix', () => {
    expect(encodeSpec(base)).toBe('["~/Utilities/Encoding/Base64Encode",60000]');
    expect(encodeSpec({ ...base, inputs: [{ name: 'Text', value: 'tick' }], overlap: 'allow-all' })).toBe(
      '["~/Utilities/Encoding/Base64Encode",60000,["Text","tick"],2]',
    );
  });

  it.each<[string, ScheduleSpec]>([
    ['defaults', base],
    ['a cron in UTC', { ...base, timing: { cron: '0 9 * * 1-5', timezone: 'UTC' } }],
    ['a cron in a zone', { ...base, timing: { cron: '*/5 * * * * *', timezone: 'Europe/Berlin' } }],
    ['a preset only', { ...base, choreo: '/Mine/Poll', preset: 'keys' }],
    ['a note only', { ...base, note: 'weekday report' }],
    ['an empty note', { ...base, note: '' }],
    [
      'everything',
      {
        ...base,
        choreo: '/Mine/Odd',
        inputs: [
          { name: '1', value: '' },
          { name: 'B', value: '"é"' },
        ],
        overlap: 'buffer-one',
        catchupWindowSeconds: 0,
        preset: 'p',
        note: 'n',
      },
    ],
  ])('reads back what it wrote: %s', (_, spec) => {
    expect(decodeSpec(encodeSpec(spec))).toEqual(spec);
  });

  it('reads a spec kept as an object before', () => {
    expect(decodeSpec(JSON.stringify(base))).toEqual(base);
  });

  it('cuts pieces of at most 64 bytes between characters', () => {
    const spec = { ...base, inputs: [{ name: 'Text', value: '€'.repeat(50) }] };
    const pieces = specPieces(spec);
    expect(pieces.length).toBeGreaterThan(2);
    for (const piece of pieces) expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(64);
    expect(pieces.join('')).toBe(encodeSpec(spec));
  });
});
