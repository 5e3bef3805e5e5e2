import type * as CsvParse from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { libraryOnFirstUse } from './library-on-first-use.ts';

describe('libraryOnFirstUse', () => {
  it('loads a library once, on the first call', () => {
    const csv = libraryOnFirstUse<typeof CsvParse>('csv-parse/sync');
    expect(csv()).toBe(csv());
    expect(csv().parse('a,b\n1,2\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
});
