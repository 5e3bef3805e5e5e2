/**
 * How a query result (JSONPath or XPath) becomes one string: a single scalar is its own text,
 * anything else (several matches, none, an object) is JSON text.
 */
export function queryResultText(matches: readonly unknown[]): string {
  if (matches.length === 1) {
    const [only] = matches;
    if (typeof only === 'string') return only;
    if (typeof only === 'number' || typeof only === 'boolean' || only === null) return String(only);
    return JSON.stringify(only);
  }
  return JSON.stringify(matches);
}

/** A query's matches as one text (see queryResultText), and how many there were. */
export interface QueryAnswer {
  result: string;
  count: number;
}
