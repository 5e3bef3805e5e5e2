import type * as JsonPathPlus from 'jsonpath-plus';
import { libraryOnFirstUse } from './library-on-first-use.ts';
import { InvalidStepInputError } from '@ces/language';

const jsonPathPlus = libraryOnFirstUse<typeof JsonPathPlus>('jsonpath-plus');

export function parseJsonText(text: string, what = 'JSON', options: { maxDepth?: number } = {}): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidStepInputError(`${what} is not valid: ${(error as Error).message}`);
  }
  if (options.maxDepth !== undefined && depthExceeds(value, options.maxDepth)) {
    throw new InvalidStepInputError(`${what} is nested more than ${options.maxDepth} levels deep`);
  }
  return value;
}

/**
 * Nesting deeper than the steps that walk JSON recursively (JSON.stringify, the XML builder) can
 * take: ten kilobytes of "[" overflow their stack. Found without recursion.
 */
function depthExceeds(value: unknown, maxDepth: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let entry = pending.pop(); entry !== undefined; entry = pending.pop()) {
    const { value: next, depth } = entry;
    if (next === null || typeof next !== 'object') continue;
    if (depth >= maxDepth) return true;
    for (const item of Array.isArray(next) ? next : Object.values(next)) {
      if (item !== null && typeof item === 'object') pending.push({ value: item, depth: depth + 1 });
    }
  }
  return false;
}

/** How deep JSON given to steps that write it again (as JSON or XML) may be: XML's own limit. */
export const MAX_JSON_DEPTH = 100;

/** All matches of a JSONPath expression. Script evaluation is disabled: paths can only select. */
export function queryJson(json: unknown, path: string): unknown[] {
  if (path.trim() === '') throw new InvalidStepInputError('the JSONPath expression is empty');
  let matches: unknown;
  // jsonpath-plus remembers every path it parses, in a plain object, for ever: in a thread that
  // serves many tenants the memory grows with every new path, and paths named like Object's own
  // properties ("constructor") collide with the object's prototype.
  const { JSONPath } = jsonPathPlus();
  JSONPath.cache = Object.create(null);
  try {
    matches = JSONPath({ path, json: json as object, eval: false, wrap: true });
  } catch (error) {
    throw new InvalidStepInputError(`JSONPath ${JSON.stringify(path)} is not valid: ${(error as Error).message}`);
  }
  return Array.isArray(matches) ? matches : [];
}
