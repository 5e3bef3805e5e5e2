import { z } from 'zod';
import type { Sandbox } from '@ces/sandbox';
import { defineStepKind, InvalidStepInputError, type StepKind } from '@ces/language';
import { booleanArg, integerArg, text } from './arg-types.ts';

/** Sizes of a replacement's text and pattern; its time, memory and result are the sandbox's to bound. */
export const MAX_REGEX_TEXT_LENGTH = 1024 * 1024;
export const MAX_REGEX_PATTERN_LENGTH = 1000;

/** Code points of `value`, counted without making an array of them. */
function codePointCount(value: string): number {
  let count = value.length;
  for (let index = 0; index < value.length - 1; index++) {
    const unit = value.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count -= 1;
        index += 1;
      }
    }
  }
  return count;
}

/** The text kinds; a replacement and title case run in `sandbox`, where they can be stopped. */
export function createTextSteps(sandbox: Sandbox): StepKind[] {
  return [...plainTextSteps, createTextCaseStep(sandbox), createRegexReplaceStep(sandbox)];
}

function createRegexReplaceStep(sandbox: Sandbox): StepKind {
  return defineStepKind({
    kind: 'text.regex-replace',
    pure: true,
    description: `Replaces matches of the JavaScript regular expression \`pattern\` (with \`flags\`, default "g") in \`text\` by \`replacement\` ($1, $<name> refer to groups). Text is limited to ${MAX_REGEX_TEXT_LENGTH} characters and patterns to ${MAX_REGEX_PATTERN_LENGTH}; the replacement runs in the step sandbox, within its time, memory and result limits. Result: \`{ text }\`.`,
    argsSchema: z.strictObject({
      text: z.string().max(MAX_REGEX_TEXT_LENGTH, `must be at most ${MAX_REGEX_TEXT_LENGTH} characters`),
      pattern: z.string().min(1).max(MAX_REGEX_PATTERN_LENGTH),
      replacement: z.string().max(MAX_REGEX_PATTERN_LENGTH).default(''),
      flags: z
        .string()
        .regex(/^(?!.*(.).*\1)[gimsuy]*$/, 'expected distinct flags among g, i, m, s, u, y')
        .default('g'),
    }),
    example: { text: '{{inputs.Text}}', pattern: '\\s+', replacement: ' ', flags: 'g' },
    run: async (args, context) => {
      try {
        // Compiling only parses, in time linear in the pattern: a bad one is refused here, at once.
        new RegExp(args.pattern, args.flags);
      } catch (error) {
        throw new InvalidStepInputError(`the regular expression is not valid: ${(error as Error).message}`);
      }
      return { text: await sandbox.regexReplace(args, context.signal) };
    },
  });
}

const plainTextSteps: readonly StepKind[] = [
  defineStepKind({
    kind: 'text.template',
    pure: true,
    description: 'Renders `text` (a template like any argument) and returns it: use it to combine inputs and step results. Result: `{ text }`.',
    argsSchema: z.strictObject({ text }),
    example: { text: 'Hello, {{inputs.Name}}!' },
    run: async (args) => ({ text: args.text }),
  }),
  defineStepKind({
    kind: 'text.split',
    pure: true,
    description:
      'Splits `text` at each occurrence of `separator` (literal text; "\\n" splits lines, CRLF included). `trim` trims each item, `removeEmpty` drops empty ones, `limit` caps their number. Result: `{ items, count }` (`{{steps.x.items}}` is a JSON array).',
    argsSchema: z.strictObject({
      text,
      separator: z.string().min(1),
      trim: booleanArg.default(false),
      removeEmpty: booleanArg.default(false),
      limit: integerArg(1, 1_000_000).optional(),
    }),
    example: { text: '{{inputs.Text}}', separator: ',', trim: 'true' },
    run: async (args) => {
      const raw = args.separator === '\n' ? args.text.split(/\r?\n/) : args.text.split(args.separator);
      let items = args.trim ? raw.map((item) => item.trim()) : raw;
      if (args.removeEmpty) items = items.filter((item) => item !== '');
      if (args.limit !== undefined) items = items.slice(0, args.limit);
      return { items, count: items.length };
    },
  }),
  defineStepKind({
    kind: 'text.length',
    pure: true,
    description: 'Counts the characters (Unicode code points) and UTF-8 bytes of `text`. Result: `{ characters, bytes }`.',
    argsSchema: z.strictObject({ text }),
    example: { text: '{{inputs.Text}}' },
    run: async (args) => ({ characters: codePointCount(args.text), bytes: Buffer.byteLength(args.text, 'utf8') }),
  }),
];

/** Upper and lower case take milliseconds on megabytes; title case half a second, so it runs in `sandbox`. */
function createTextCaseStep(sandbox: Sandbox): StepKind {
  return defineStepKind({
    kind: 'text.case',
    pure: true,
    description: 'Changes the case of `text`: `case` is upper, lower or title (first letter of each word upper-case). Result: `{ text }`.',
    argsSchema: z.strictObject({ text, case: z.enum(['upper', 'lower', 'title']) }),
    example: { text: '{{inputs.Text}}', case: 'title' },
    run: async (args, context) => {
      if (args.case === 'title') return { text: await sandbox.titleCase({ text: args.text }, context.signal) };
      return { text: args.case === 'upper' ? args.text.toUpperCase() : args.text.toLowerCase() };
    },
  });
}
