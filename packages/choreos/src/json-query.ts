import { JSONPath } from 'jsonpath-plus';
import { InvalidStepInputError } from './step-errors.ts';

export function parseJsonText(text: string, what = 'JSON'): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidStepInputError(`${what} is not valid: ${(error as Error).message}`);
  }
}

/** All matches of a JSONPath expression. Script evaluation is disabled: paths can only select. */
export function queryJson(json: unknown, path: string): unknown[] {
  if (path.trim() === '') throw new InvalidStepInputError('the JSONPath expression is empty');
  let matches: unknown;
  // jsonpath-plus remembers every path it parses, in a plain object, for ever: in a thread that
  // serves many tenants the memory grows with every new path, and paths named like Object's own
  // properties ("constructor") collide with the object's prototype.
  JSONPath.cache = Object.create(null);
  try {
    matches = JSONPath({ path, json: json as object, eval: false, wrap: true });
  } catch (error) {
    throw new InvalidStepInputError(`JSONPath ${JSON.stringify(path)} is not valid: ${(error as Error).message}`);
  }
  return Array.isArray(matches) ? matches : [];
}
