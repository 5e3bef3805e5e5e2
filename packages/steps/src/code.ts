import { z } from 'zod';
import type { Sandbox } from '@ces/sandbox';
import { defineStepKind, type StepKind } from '@ces/language';

/** Longest code a step may carry: definitions are written by people. */
const MAX_CODE_LENGTH = 100_000;

/**
 * A syntax error found when the catalogue loads (for literal code) rather than when a run reaches
 * the step. V8 only compiles the function here, never calls it; QuickJS, which runs it, has the
 * last word (and names the line).
 */
function checkSyntax(code: string, context: z.RefinementCtx): void {
  try {
    new Function('input', `"use strict";\n${code}`);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    context.addIssue({ code: 'custom', message: `the code does not compile: SyntaxError: ${error.message}` });
  }
}

/** `code.javascript`: the code runs in `sandbox` (QuickJS in WebAssembly, in a sandbox process), on the data it is given. */
export function createCodeStep(sandbox: Sandbox): StepKind {
  return defineStepKind({
    kind: 'code.javascript',
    // QuickJS is given no clock, no randomness and no I/O: the same code on the same input returns the same.
    pure: true,
    description:
      'Runs `code`, the body of a JavaScript function of `input` (any JSON value: build it with templates or an expression), in a WebAssembly sandbox without network, files, clock or randomness, and returns what it returns (JSON data; `null` for nothing). The result is the step result: `{{steps.<id>.total}}` reads a field of a returned object.',
    argsSchema: z.strictObject({
      code: z.string().min(1).max(MAX_CODE_LENGTH, `must be at most ${MAX_CODE_LENGTH} characters`).superRefine(checkSyntax),
      input: z.unknown().default(null),
    }),
    example: { code: 'return { total: JSON.parse(input).reduce((sum, amount) => sum + amount, 0) };', input: '{{inputs.Amounts}}' },
    run: async (args, context) => sandbox.runCode({ code: args.code, input: args.input }, context.signal),
  });
}
