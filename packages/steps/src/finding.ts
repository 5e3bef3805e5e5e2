import { z } from 'zod';
import type { Sandbox } from '@ces/sandbox';
import { defineStepKind, InvalidStepInputError, type StepKind } from '@ces/language';
import { booleanArg, integerArg, text } from './arg-types.ts';
import { MAX_REGEX_PATTERN_LENGTH, MAX_REGEX_TEXT_LENGTH } from './text.ts';

const FLAGS = z
  .string()
  .regex(/^(?!.*(.).*\1)[imsuy]*$/, 'expected distinct flags among i, m, s, u, y')
  .default('');

/**
 * Searching a text, in `sandbox`: a pattern can backtrack for ever, and even a literal substring,
 * case-insensitive, compares up to its length at every position of megabytes.
 */
export function createFindingSteps(sandbox: Sandbox): StepKind[] {
  return [
    defineStepKind({
      kind: 'text.find-substring',
      pure: true,
      description:
        'Finds every occurrence of `substring` in `text` from the character at `start` (1 = the first, the default), left to right and not overlapping; `caseSensitive` defaults to false. Positions count characters (code points) from 1. Result: `{ positions, count }`.',
      argsSchema: z.strictObject({
        text,
        substring: z.string().min(1, 'the substring to find is empty').max(MAX_REGEX_PATTERN_LENGTH),
        caseSensitive: booleanArg.default(false),
        start: integerArg(1, Number.MAX_SAFE_INTEGER).default(1),
      }),
      example: { text: '{{inputs.Text}}', substring: '{{inputs.Substring}}', caseSensitive: 'false', start: '1' },
      run: async (args, context) => {
        const positions = await sandbox.findSubstring(args, context.signal);
        return { positions, count: positions.length };
      },
    }),
    defineStepKind({
      kind: 'text.regex-match',
      pure: true,
      description: `Finds the first match of the JavaScript regular expression \`pattern\` (with \`flags\` among i, m, s, u, y) in \`text\`. Text is limited to ${MAX_REGEX_TEXT_LENGTH} characters and patterns to ${MAX_REGEX_PATTERN_LENGTH}; the search runs in the step sandbox, within its limits. Result: \`{ match, found }\` (\`match\` is empty when nothing matches).`,
      argsSchema: z.strictObject({
        text: z.string().max(MAX_REGEX_TEXT_LENGTH, `must be at most ${MAX_REGEX_TEXT_LENGTH} characters`),
        pattern: z.string().min(1, 'the regular expression is empty').max(MAX_REGEX_PATTERN_LENGTH),
        flags: FLAGS,
      }),
      example: { text: '{{inputs.Text}}', pattern: '\\d+' },
      run: async (args, context) => {
        try {
          new RegExp(args.pattern, args.flags);
        } catch (error) {
          throw new InvalidStepInputError(`the regular expression is not valid: ${(error as Error).message}`);
        }
        const answer = await sandbox.matchRegex(args, context.signal);
        return { match: answer.result, found: answer.count > 0 };
      },
    }),
  ];
}
