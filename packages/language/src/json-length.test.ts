import { describe, expect, it } from 'vitest';
import { exceedsJsonLength } from './json-length.ts';

describe('exceedsJsonLength', () => {
  it.each([
    ['text', 'x'.repeat(10)],
    ['an object', { name: 'x'.repeat(5), list: [1, true, null, 'abc'], nested: { deeper: { value: 12.5 } } }],
    ['an array of objects', [{ a: '1' }, { b: '22' }, {}, []]],
    ['controls, quotes and backslashes', { 'a"b': 'line\nfeed\ttab\u0001\u001f"quoted" back\\slash' }],
    ['surrogates, paired and lone', ['😀 pair', 'lone \ud800 high', 'lone \udc00 low', '\ud800']],
    ['five megabytes of a control character', '\u0001'.repeat(5 * 1024 * 1024)],
  ])('agrees with JSON.stringify on %s', (_, value) => {
    const length = JSON.stringify(value).length;
    expect(exceedsJsonLength(value, length)).toBe(false);
    expect(exceedsJsonLength(value, length - 1)).toBe(true);
  });

  it('stops early on a huge value', () => {
    const huge = Array.from({ length: 1_000_000 }, () => 'x'.repeat(100));
    expect(exceedsJsonLength(huge, 1000)).toBe(true);
  });
});
