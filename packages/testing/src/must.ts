/** The value, narrowed to defined; a missing one fails the test here, with what was expected. */
export function must<T>(value: T | null | undefined, what = 'a value'): T {
  if (value === undefined || value === null) throw new Error(`expected ${what}, got ${value}`);
  return value;
}
