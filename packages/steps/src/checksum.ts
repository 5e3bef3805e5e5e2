import { createHash } from 'node:crypto';
import { z } from 'zod';
import { defineStepKind, InvalidStepInputError, type StepKind } from '@ces/language';
import { text } from './arg-types.ts';

const ALGORITHMS = ['MD5+HEX', 'MD5+BASE64', 'FIX44'] as const;
type ChecksumAlgorithm = (typeof ALGORITHMS)[number];

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** "1"/"0" as the original's flags are written, and true/false. */
const flagArg = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    const flag = value.trim().toLowerCase();
    if (flag === '' || flag === '0' || flag === 'false') return false;
    if (flag === '1' || flag === 'true') return true;
    return value;
  },
  z.boolean({ error: 'expected 1 or 0 (true or false)' }),
);

/**
 * The FIX protocol's checksum (field 10 of FIX 4.4): the sum of the message's bytes modulo 256,
 * written as three digits.
 */
export function fixChecksum(bytes: Uint8Array): string {
  let sum = 0;
  for (const byte of bytes) sum = (sum + byte) % 256;
  return String(sum).padStart(3, '0');
}

export function checksum(bytes: Buffer, algorithm: ChecksumAlgorithm): string {
  if (algorithm === 'FIX44') return fixChecksum(bytes);
  return createHash('md5')
    .update(bytes)
    .digest(algorithm === 'MD5+HEX' ? 'hex' : 'base64');
}

export const checksumSteps: readonly StepKind[] = [
  defineStepKind({
    kind: 'hashing.checksum',
    pure: true,
    description:
      'Checksum of the UTF-8 bytes of `text`, or with `base64Decode` (1 or true) of the bytes its Base64 stands for. `algorithm` is MD5+HEX (default: the MD5 digest in lower-case hexadecimal), MD5+BASE64 (in Base64) or FIX44 (the FIX protocol checksum: byte sum modulo 256, three digits). Result: `{ checksum }`.',
    argsSchema: z.strictObject({
      text,
      algorithm: z
        .string()
        .trim()
        .toUpperCase()
        .transform((value) => (value === '' ? 'MD5+HEX' : value))
        .pipe(z.enum(ALGORITHMS, { error: `expected one of ${ALGORITHMS.join(', ')}` }))
        .default('MD5+HEX'),
      base64Decode: flagArg.default(false),
    }),
    example: { text: '{{inputs.Text}}', algorithm: '{{inputs.Algorithm}}', base64Decode: '{{inputs.Base64DecodeValue}}' },
    run: async (args) => {
      let bytes = Buffer.from(args.text, 'utf8');
      if (args.base64Decode) {
        const compact = args.text.replace(/\s+/g, '');
        if (!BASE64.test(compact) || compact.replace(/=+$/, '').length % 4 === 1) throw new InvalidStepInputError('the text is not valid Base64');
        bytes = Buffer.from(compact, 'base64');
      }
      return { checksum: checksum(bytes, args.algorithm) };
    },
  }),
];
