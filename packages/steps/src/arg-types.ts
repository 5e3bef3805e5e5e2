import { z } from 'zod';

/**
 * Argument schemas shared by the step kinds. Templated arguments always render to strings, so
 * numbers and booleans are accepted both as JSON literals and as their text form.
 */

/** Inputs larger than this are refused before any parsing or matching starts. */
export const MAX_TEXT_LENGTH = 5 * 1024 * 1024;

export const text = z.string().max(MAX_TEXT_LENGTH, `must be at most ${MAX_TEXT_LENGTH} characters`);

const BOOLEAN_TEXT: Readonly<Record<string, boolean>> = { true: true, false: false };

// Preprocessing rather than unions, so that a bad value gets a plain message, not "Invalid input".
export const booleanArg = z.preprocess(
  (value) => (typeof value === 'string' ? (BOOLEAN_TEXT[value.trim().toLowerCase()] ?? value) : value),
  z.boolean({ error: 'expected true or false' }),
);

export function integerArg(min: number, max: number) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value),
    z
      .number({ error: (issue) => (issue.code === 'invalid_type' ? 'expected a whole number' : undefined) })
      .int('expected a whole number')
      .min(min)
      .max(max),
  );
}

/**
 * A string map given either as a JSON object or as the text of one (what a STRING_VARIABLE input
 * carries); an empty string means none. Numbers and booleans become their text.
 */
export const stringMapArg = z.unknown().transform((value, context): Record<string, string> => {
  let parsed = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return {};
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      context.addIssue({ code: 'custom', message: `expected a JSON object: ${(error as Error).message}` });
      return z.NEVER;
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    context.addIssue({ code: 'custom', message: 'expected a JSON object' });
    return z.NEVER;
  }
  const map: Record<string, string> = {};
  for (const [name, item] of Object.entries(parsed)) {
    if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') {
      context.addIssue({ code: 'custom', message: `expected a JSON object whose values are strings, numbers or booleans ("${name}" is not)` });
      return z.NEVER;
    }
    Object.defineProperty(map, name, { value: String(item), enumerable: true, writable: true, configurable: true });
  }
  return map;
});
