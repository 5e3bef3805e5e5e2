import { z } from 'zod';
import { defineStepKind, InvalidStepInputError, type StepKind } from '@ces/language';
import { MAX_TEXT_LENGTH, text } from './arg-types.ts';

/** A substitution may grow its text, up to this: the engine refuses larger results anyway. */
export const MAX_SUBSTITUTED_LENGTH = 16 * 1024 * 1024;

/** Edits of a text that need no pattern from the caller, so they run in linear time on the worker's thread. */
export const textEditSteps: readonly StepKind[] = [
  defineStepKind({
    kind: 'text.substitute',
    pure: true,
    description:
      'Replaces every occurrence of the literal text `old` in `text` with `new` (no pattern, no `$` references), left to right. Result: `{ text, count }`.',
    argsSchema: z.strictObject({
      text,
      old: z.string().min(1, 'the text to replace is empty').max(MAX_TEXT_LENGTH),
      new: text,
    }),
    example: { text: '{{inputs.Text}}', old: '{{inputs.Old}}', new: '{{inputs.New}}' },
    run: async (args) => {
      const parts = args.text.split(args.old);
      const length = args.text.length + (parts.length - 1) * (args.new.length - args.old.length);
      if (length > MAX_SUBSTITUTED_LENGTH) {
        throw new InvalidStepInputError(`the result would be ${length} characters, more than ${MAX_SUBSTITUTED_LENGTH}`);
      }
      return { text: parts.join(args.new), count: parts.length - 1 };
    },
  }),
  defineStepKind({
    kind: 'text.remove-line-breaks',
    pure: true,
    description:
      'Removes every line break (CR, LF) and tab from `text`, then the white space at its start and end; the spaces inside stay. Result: `{ text }`.',
    argsSchema: z.strictObject({ text }),
    example: { text: '{{inputs.FormattedText}}' },
    run: async (args) => ({ text: args.text.replace(/[\r\n\t]+/g, '').trim() }),
  }),
];
