/** The value, or a clear error naming what is missing: for values whose absence would be a bug here. */
export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing`);
  return value;
}
