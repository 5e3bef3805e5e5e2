import { describe, expect, it } from 'vitest';
import { formatDuration, parseInputs, parseSince } from './values.ts';

describe('command line values', () => {
  const files: Record<string, string> = { 'body.json': '{"a": 1}' };
  const readFile = async (path: string) => {
    const content = files[path];
    if (content === undefined) throw new Error('ENOENT: no such file');
    return content;
  };

  it('reads -i Name=Value, Name=@file and Name=@@literal', async () => {
    expect(await parseInputs(['Text=a=b', 'Body=@body.json', 'Handle=@@me', 'Empty='], readFile)).toEqual([
      { name: 'Text', value: 'a=b' },
      { name: 'Body', value: '{"a": 1}' },
      { name: 'Handle', value: '@me' },
      { name: 'Empty', value: '' },
    ]);
  });

  it('refuses an input without a name, given twice, or from a file it cannot read', async () => {
    await expect(parseInputs(['=x'], readFile)).rejects.toThrow('-i "=x" is not Name=Value');
    await expect(parseInputs(['A=1', 'A=2'], readFile)).rejects.toThrow('input A is given twice');
    await expect(parseInputs(['A=@missing.txt'], readFile)).rejects.toThrow('cannot read missing.txt for input A');
  });

  it('reads --since as a span back from now, a date or epoch milliseconds', () => {
    const now = Date.parse('2026-01-31T12:00:00Z');
    expect(parseSince('1h', now)).toBe(now - 3_600_000);
    expect(parseSince('90s', now)).toBe(now - 90_000);
    expect(parseSince('2d', now)).toBe(now - 2 * 86_400_000);
    expect(parseSince('2026-01-30T00:00:00Z', now)).toBe(Date.parse('2026-01-30T00:00:00Z'));
    expect(parseSince('1767225600000', now)).toBe(1767225600000);
    expect(() => parseSince('yesterday', now)).toThrow('neither a span');
  });

  it('writes durations as people read them', () => {
    expect(formatDuration(0.399)).toBe('0.4 ms');
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(12.4)).toBe('12 ms');
    expect(formatDuration(3250)).toBe('3.3 s');
    expect(formatDuration(245_000)).toBe('4 min 05 s');
    expect(formatDuration(3_780_000)).toBe('1 h 03 min');
  });
});
