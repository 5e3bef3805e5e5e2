import { z } from 'zod';

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
