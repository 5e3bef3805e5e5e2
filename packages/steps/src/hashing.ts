import { createHash, createHmac } from 'node:crypto';
import { z } from 'zod';
import { defineStepKind, type StepKind } from '@ces/language';
import { text } from './arg-types.ts';

const algorithm = z.enum(['md5', 'sha1', 'sha256', 'sha512']);
const encoding = z.enum(['hex', 'base64']).default('hex');

export const hashingSteps: readonly StepKind[] = [
  defineStepKind({
    kind: 'hashing.hash',
    pure: true,
    description:
      'Digest of the UTF-8 bytes of `text` with `algorithm` (md5, sha1, sha256, sha512), as `encoding` (hex, the default, or base64). Result: `{ digest }`.',
    argsSchema: z.strictObject({ text, algorithm, encoding }),
    example: { text: '{{inputs.Text}}', algorithm: 'sha256', encoding: 'hex' },
    run: async (args) => ({ digest: createHash(args.algorithm).update(args.text, 'utf8').digest(args.encoding) }),
  }),
  defineStepKind({
    kind: 'hashing.hmac',
    pure: true,
    description:
      'HMAC of the UTF-8 bytes of `text` keyed with the UTF-8 bytes of `key`, with `algorithm` and `encoding` as for hashing.hash. Result: `{ digest }`.',
    argsSchema: z.strictObject({ text, key: z.string().min(1, 'must not be empty'), algorithm, encoding }),
    example: { text: '{{inputs.Text}}', key: '{{inputs.Key}}', algorithm: 'sha256' },
    run: async (args) => ({ digest: createHmac(args.algorithm, args.key).update(args.text, 'utf8').digest(args.encoding) }),
  }),
];
