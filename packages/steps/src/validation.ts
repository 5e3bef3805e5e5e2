import { z } from 'zod';
import type { Sandbox } from '@ces/sandbox';
import { defineStepKind, type StepKind } from '@ces/language';
import { MAX_XML_LENGTH } from '@ces/formats';
import { integerArg, text } from './arg-types.ts';

/**
 * The formats `validation.format` knows. Each pattern must match the whole value; none can
 * backtrack far, and values longer than MAX_FORMAT_LENGTH are invalid before any matching.
 */
export const FORMATS = {
  // Dotted atoms before the @ (RFC 5322 without quoting or comments), host names of letters,
  // digits and inner hyphens after it, ending in a top-level domain of letters.
  email: /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/,
  // A9A 9A9: no D, F, I, O, Q or U anywhere (they read like digits), no W or Z first.
  'canadian-postal-code': /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ -]?\d[ABCEGHJ-NPRSTV-Z]\d$/i,
  // 9999 AA: no leading zero; SA, SD and SS are not issued.
  'dutch-postal-code': /^[1-9]\d{3} ?(?!SA|SD|SS)[A-Z]{2}$/i,
  // Five digits, 01001 to 99998: none starts with 00.
  'german-postal-code': /^(?!00)\d{5}$/,
  // Six digits, the first not 0.
  'russian-postal-code': /^[1-9]\d{5}$/,
  // Outward code (area, district) and inward code (sector, unit), upper-case, plus GIR 0AA.
  'uk-postal-code': /^(?:GIR ?0AA|[A-PR-UWYZ](?:\d[A-HJKPSTUW\d]?|[A-HK-Y]\d[ABEHMNPRVWXY\d]?) ?\d[ABD-HJLNP-UW-Z]{2})$/,
  // ZIP or ZIP+4.
  'us-postal-code': /^\d{5}(?:-\d{4})?$/,
} as const;

/** Longer than any address of RFC 5321 (254) or postal code: invalid without matching. */
export const MAX_FORMAT_LENGTH = 254;
/** Bounds of PasswordCriteria's lengths. */
const MAX_PASSWORD_LENGTH = 10_000;
/** Schemas are much smaller than documents; this one bounds the validator's work on both. */
export const MAX_XSD_LENGTH = 1024 * 1024;

const verdict = (valid: boolean) => (valid ? 'valid' : 'invalid');

function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

export function createValidationSteps(sandbox: Sandbox): StepKind[] {
  return [
    defineStepKind({
      kind: 'validation.format',
      pure: true,
      description: `Checks that the whole of \`text\` has the \`format\` (${Object.keys(FORMATS).join(', ')}). Result: \`{ result }\`, "valid" or "invalid".`,
      argsSchema: z.strictObject({ text, format: z.enum(Object.keys(FORMATS) as [keyof typeof FORMATS]) }),
      example: { text: '{{inputs.ZipCode}}', format: 'us-postal-code' },
      run: async (args) => ({ result: verdict(args.text.length <= MAX_FORMAT_LENGTH && FORMATS[args.format].test(args.text)) }),
    }),
    defineStepKind({
      kind: 'validation.password',
      pure: true,
      description:
        'Checks that `password` is `minLength` (default 6) to `maxLength` (default 14) characters long and holds at least one digit, one lower-case and one upper-case letter (A to Z). Result: `{ result }`, "valid" or "invalid".',
      argsSchema: z
        .strictObject({
          password: text,
          minLength: integerArg(0, MAX_PASSWORD_LENGTH).default(6),
          maxLength: integerArg(0, MAX_PASSWORD_LENGTH).default(14),
        })
        .refine((args) => args.minLength <= args.maxLength, { message: 'the minimum length is greater than the maximum length' }),
      example: { password: '{{inputs.Password}}', minLength: '{{inputs.MinLength}}', maxLength: '{{inputs.MaxLength}}' },
      run: async (args) => {
        const length = args.password.length > MAX_PASSWORD_LENGTH * 2 ? Number.POSITIVE_INFINITY : codePoints(args.password);
        const valid =
          length >= args.minLength && length <= args.maxLength && /\d/.test(args.password) && /[a-z]/.test(args.password) && /[A-Z]/.test(args.password);
        return { result: verdict(valid) };
      },
    }),
    defineStepKind({
      kind: 'validation.json',
      pure: true,
      description: 'Checks that `json` is well-formed JSON text. Result: `{ result, error }`: "valid" or "invalid", and what is wrong (empty when valid).',
      argsSchema: z.strictObject({ json: text }),
      example: { json: '{{inputs.JSON}}' },
      run: async (args) => {
        try {
          JSON.parse(args.json);
          return { result: 'valid', error: '' };
        } catch (error) {
          return { result: 'invalid', error: (error as Error).message };
        }
      },
    }),
    defineStepKind({
      kind: 'validation.xml',
      pure: true,
      description: `Checks that \`xml\` is well-formed and, when \`xsd\` is given, valid against that XML Schema, with libxml2 in the step sandbox (no file or network access: \`xs:include\` and \`xs:import\` cannot load anything). XML up to ${MAX_XML_LENGTH} characters, XSD up to ${MAX_XSD_LENGTH}; a schema that does not compile fails the step. Result: \`{ result, error }\`: "valid" or "invalid", and the problems found, one per line (empty when valid).`,
      argsSchema: z.strictObject({
        xml: z.string().max(MAX_XML_LENGTH, `must be at most ${MAX_XML_LENGTH} characters`),
        xsd: z.string().max(MAX_XSD_LENGTH, `must be at most ${MAX_XSD_LENGTH} characters`).default(''),
      }),
      example: { xml: '{{inputs.XMLFile}}', xsd: '{{inputs.XSDFile}}' },
      run: async (args, context) => {
        const error = await sandbox.validateXml(args, context.signal);
        return { result: verdict(error === ''), error };
      },
    }),
  ];
}
