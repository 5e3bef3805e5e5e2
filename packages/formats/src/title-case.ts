/** A word starts after a space, `-`, `_`, `/`, an opening bracket or a quote, or at the start. */
const WORD_START = /(^|[\s\-_/([{"'])(\p{L})/gu;
const WORD_START_AFTER_SEPARATOR = /([\s\-_/([{"'])(\p{L})/gu;
/**
 * Replacing every word of megabytes at once keeps every match alive until the end: millions of
 * short words overflow a sandbox process's heap. Pieces of this size bound what one call holds.
 */
const PIECE_LENGTH = 64 * 1024;

const capitalise = (_: string, before: string, letter: string) => before + letter.toUpperCase();

/**
 * Lower-cases `text` and capitalises the first letter of each word. Linear, but a callback per
 * word: megabytes take half a second, so the step runs it in a sandbox process.
 */
export function titleCase(text: string): string {
  const lower = text.toLowerCase();
  const pieces: string[] = [];
  for (let start = 0; start < lower.length; ) {
    let end = Math.min(start + PIECE_LENGTH, lower.length);
    // Never between the two halves of a character outside the BMP.
    const last = lower.charCodeAt(end - 1);
    if (end < lower.length && last >= 0xd800 && last <= 0xdbff) end += 1;
    if (start === 0) pieces.push(lower.slice(0, end).replace(WORD_START, capitalise));
    else {
      // The character before the piece says whether its first letter starts a word; it is
      // matched only as a separator, which the replacement keeps as it is.
      pieces.push((lower[start - 1] + lower.slice(start, end)).replace(WORD_START_AFTER_SEPARATOR, capitalise).slice(1));
    }
    start = end;
  }
  return pieces.join('');
}
