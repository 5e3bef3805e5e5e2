import { z } from 'zod';
import { defineStepKind, stepLibraryFrom } from './step-kind.ts';
import type { StepLibrary } from './step-kind.ts';

/**
 * A few step kinds shaped like the shipped ones (their names, their arguments, whether they are
 * pure), for the language's own tests: the shipped library is in @ces/steps, above this package.
 * Their `run` returns the arguments; only definitions are judged with them.
 */
export function stepLibraryForTest(): StepLibrary {
  const echo = async (args: unknown) => args;
  return stepLibraryFrom([
    defineStepKind({ kind: 'noop', description: 'Returns its arguments.', argsSchema: z.record(z.string(), z.unknown()), run: echo }),
    defineStepKind({
      kind: 'control.wait',
      description: 'Waits.',
      argsSchema: z.strictObject({ milliseconds: z.union([z.number().int().min(0), z.string().regex(/^\d+$/)]) }),
      run: echo,
    }),
    defineStepKind({
      kind: 'hashing.hash',
      description: 'Hashes a text.',
      argsSchema: z.strictObject({ text: z.string(), algorithm: z.enum(['md5', 'sha1', 'sha256', 'sha512']) }),
      pure: true,
      run: echo,
    }),
    defineStepKind({ kind: 'text.template', description: 'Renders a text.', argsSchema: z.strictObject({ text: z.string() }), pure: true, run: echo }),
    defineStepKind({
      kind: 'encoding.base64-encode',
      description: 'Encodes a text.',
      argsSchema: z.strictObject({ text: z.string() }),
      pure: true,
      run: echo,
    }),
    defineStepKind({
      kind: 'encoding.base64-encode-source',
      description: 'Encodes a text, or what a URL answers.',
      argsSchema: z.strictObject({ text: z.string().default(''), url: z.string().default('') }),
      pureUnless: ['url'],
      run: echo,
    }),
    defineStepKind({ kind: 'http.request', description: 'Sends a request.', argsSchema: z.looseObject({ url: z.string() }), run: echo }),
  ]);
}
