import { z } from 'zod';
import { defineStepKind, InvalidStepInputError, type StepKind } from '@ces/language';
import { text } from './arg-types.ts';

/** What encodeURIComponent leaves alone but the form encoding (Java's URLEncoder, HTML forms) escapes. */
const FORM_RESERVED: Readonly<Record<string, string>> = { '!': '%21', "'": '%27', '(': '%28', ')': '%29', '~': '%7E' };

/**
 * application/x-www-form-urlencoded: letters, digits and `. - * _` stay, a space becomes `+`,
 * every other character the percent-encoding of its UTF-8 bytes (upper-case hexadecimal).
 */
export function formUrlEncode(value: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    throw new InvalidStepInputError('the text is not valid Unicode (it holds a lone surrogate)');
  }
  return encoded.replace(/[!'()~]/g, (character) => FORM_RESERVED[character] ?? character).replace(/%20/g, '+');
}

export const formEncodingSteps: readonly StepKind[] = [
  defineStepKind({
    kind: 'encoding.form-url-encode',
    pure: true,
    description:
      'Encodes `text` as in an HTML form (application/x-www-form-urlencoded): letters, digits and `. - * _` stay, a space becomes `+`, anything else `%XX` per UTF-8 byte. Result: `{ text }`.',
    argsSchema: z.strictObject({ text }),
    example: { text: '{{inputs.Text}}' },
    run: async (args) => ({ text: formUrlEncode(args.text) }),
  }),
];
