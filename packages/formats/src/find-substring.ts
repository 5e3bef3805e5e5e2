export interface FindSubstringRequest {
  text: string;
  substring: string;
  caseSensitive: boolean;
  /** The code point to start from, 1 for the first. */
  start: number;
}

/**
 * 1-based code-point positions of `substring` in `text` from code point `start`. The search goes
 * through a RegExp built from the escaped substring, so that case-insensitive matching folds case
 * per character without changing the text's length (lower-casing "İ" makes two code units of one).
 */
export function findSubstring({ text: value, substring, caseSensitive, start }: FindSubstringRequest): number[] {
  const search = new RegExp(substring.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), caseSensitive ? 'gu' : 'giu');
  let unit = 0;
  for (let skipped = 1; skipped < start && unit < value.length; skipped++) unit += (value.codePointAt(unit) ?? 0) > 0xffff ? 2 : 1;
  search.lastIndex = unit;
  const positions: number[] = [];
  // Code points before `counted` (a code-unit index) are `position - 1`: counted incrementally.
  let counted = 0;
  let position = 1;
  for (let match = search.exec(value); match !== null; match = search.exec(value)) {
    while (counted < match.index) {
      counted += (value.codePointAt(counted) ?? 0) > 0xffff ? 2 : 1;
      position += 1;
    }
    positions.push(position);
  }
  return positions;
}
