/**
 * Whether `value` written as JSON would be longer than `limit` characters, found without writing
 * it: strings count their length, quotes and escapes, numbers and literals their text, containers
 * their brackets, commas and keys. The walk stops as soon as the limit is passed.
 */
export function exceedsJsonLength(value: unknown, limit: number): boolean {
  return jsonLength(value, limit) > limit;
}

/** The length of `value` as JSON, exact up to `limit`; past it, some length over the limit. */
export function jsonLength(value: unknown, limit: number): number {
  let length = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') length += stringLength(next);
    else if (next === null || typeof next !== 'object') length += String(next).length;
    else if (Array.isArray(next)) {
      length += containerLength(next.length);
      for (const item of next) pending.push(item);
    } else {
      const entries = Object.entries(next);
      length += containerLength(entries.length);
      for (const [key, item] of entries) {
        length += stringLength(key) + 1;
        pending.push(item);
      }
    }
    if (length > limit) return length;
  }
  return length;
}

/** Characters that JSON escapes: controls, quote, backslash, and UTF-16 surrogates (lone ones). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** A string as JSON writes it: quotes, `\n` for a newline, `\u0001` for a control, and so on. */
function stringLength(text: string): number {
  let length = text.length + 2;
  // Most text has nothing to escape, and the test runs in native code.
  if (!ESCAPED.test(text)) return length;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x20) length += code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 1 : 5;
    else if (code === 0x22 || code === 0x5c) length += 1;
    else if (code >= 0xd800 && code <= 0xdfff) {
      if (code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i += 1;
      else length += 5;
    }
  }
  return length;
}

/** Brackets and the commas between `items`. */
function containerLength(items: number): number {
  return 2 + Math.max(items - 1, 0);
}
