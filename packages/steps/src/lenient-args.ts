import { z } from 'zod';

/** Arguments as the original Utilities take their inputs: optional inputs not given arrive as empty texts. */

/**
 * A choice among `values`, as the original Utilities take it: any letter case, surrounding
 * spaces ignored, and an empty text (an optional input not given) meaning `fallback`.
 */
export function choiceArg<const Values extends readonly [string, ...string[]]>(values: Values, fallback: Values[number]) {
  return z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() || fallback : (value ?? fallback)),
    z.enum(values, { error: () => `expected one of ${values.join(', ')}` }),
  );
}

/** "true" or "false" in any letter case; an empty text (an optional input not given) is false. */
export const optionalFlagArg = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value ?? false;
    const text = value.trim().toLowerCase();
    return text === '' ? false : text === 'true' ? true : text === 'false' ? false : value;
  },
  z.boolean({ error: 'expected true or false' }),
);

/** A whole number from `min` to `max`, or nothing: an empty text is an optional input not given. */
export function optionalIntegerArg(min: number, max: number) {
  return z.preprocess(
    (value) => {
      if (typeof value !== 'string') return value;
      const text = value.trim();
      if (text === '') return undefined;
      return /^[-+]?\d+$/.test(text) ? Number(text) : value;
    },
    z
      .number({ error: (issue) => (issue.code === 'invalid_type' ? 'expected a whole number' : undefined) })
      .int('expected a whole number')
      .min(min)
      .max(max)
      .optional(),
  );
}
