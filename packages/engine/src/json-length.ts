/**
 * Whether `value` written as JSON would be longer than `limit` characters, found without writing
 * it: strings count their length plus quotes, numbers and literals their text, containers their
 * brackets, commas and keys. Escapes are not counted, so it errs short, by at most a few per cent
 * on ordinary text. The walk stops as soon as the limit is passed.
 */
export function exceedsJsonLength(value: unknown, limit: number): boolean {
  let length = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') length += next.length + 2;
    else if (next === null || typeof next !== 'object') length += String(next).length;
    else if (Array.isArray(next)) {
      length += containerLength(next.length);
      for (const item of next) pending.push(item);
    } else {
      const entries = Object.entries(next);
      length += containerLength(entries.length);
      for (const [key, item] of entries) {
        length += key.length + 3;
        pending.push(item);
      }
    }
    if (length > limit) return true;
  }
  return false;
}

/** Brackets and the commas between `items`. */
function containerLength(items: number): number {
  return 2 + Math.max(items - 1, 0);
}
