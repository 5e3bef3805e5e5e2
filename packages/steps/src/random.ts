import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineStepKind, type StepKind } from '@ces/language';

/** 2^53: a 53-bit integer over it is a double in [0, 1) with every representable step equally likely. */
const TWO_TO_53 = 2 ** 53;

/** A double in [0, 1) from the operating system's cryptographic generator. */
function unitInterval(): number {
  const bytes = randomBytes(8);
  return Number(bytes.readBigUInt64BE() >> 11n) / TWO_TO_53;
}

/** Random values, from the operating system's cryptographic generator (never Math.random). */
export const randomSteps: readonly StepKind[] = [
  defineStepKind({
    kind: 'random.numbers',
    description:
      'Draws four independent random numbers: `unsignedInteger` (0 to 4294967295), `signedInteger` (-2147483648 to 2147483647), `unsignedDecimal` (0 to 1) and `signedDecimal` (-0.5 to 0.5). No arguments.',
    argsSchema: z.strictObject({}),
    example: {},
    run: async () => {
      const integers = randomBytes(8);
      return {
        unsignedInteger: integers.readUInt32BE(0),
        signedInteger: integers.readInt32BE(4),
        unsignedDecimal: unitInterval(),
        signedDecimal: unitInterval() - 0.5,
      };
    },
  }),
  defineStepKind({
    kind: 'random.guid',
    description: 'A random (version 4) UUID in lower-case hexadecimal with hyphens. No arguments. Result: `{ guid }`.',
    argsSchema: z.strictObject({}),
    example: {},
    run: async () => ({ guid: randomUUID() }),
  }),
];
