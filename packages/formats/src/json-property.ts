import { parseJsonText } from './json-query.ts';
import { queryResultText } from './query-result.ts';
import { InvalidStepInputError } from '@ces/language';
import type { QueryAnswer } from './query-result.ts';

export interface JsonPropertyRequest {
  /** JSON text. */
  json: string;
  property: string;
}

type Pending = { explore: unknown } | { found: unknown };

/**
 * The values of every property named `property`, at any depth, in document order (a property's
 * value before the matches inside it). Walked without recursion: ten kilobytes of `[` would
 * overflow the stack.
 */
export function findJsonProperty(request: JsonPropertyRequest): QueryAnswer {
  const matches: unknown[] = [];
  const pending: Pending[] = [{ explore: parseJsonText(request.json) }];
  while (pending.length > 0) {
    const next = pending.pop() as Pending;
    if ('found' in next) {
      matches.push(next.found);
      continue;
    }
    const value = next.explore;
    if (value === null || typeof value !== 'object') continue;
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((item) => ['', item]) : Object.entries(value);
    // Pushed last to first, so that they are taken first to last.
    for (let index = entries.length - 1; index >= 0; index--) {
      const [name, item] = entries[index] as [string, unknown];
      pending.push({ explore: item });
      if (!Array.isArray(value) && name === request.property) pending.push({ found: item });
    }
  }
  try {
    return { result: queryResultText(matches), count: matches.length };
  } catch (error) {
    // JSON.stringify recurses: values nested tens of thousands deep overflow its stack.
    if (error instanceof RangeError) throw new InvalidStepInputError('the values found are nested too deeply to be written as JSON');
    throw error;
  }
}
