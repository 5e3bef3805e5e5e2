import { z } from 'zod';
import type { Sandbox } from '@ces/sandbox';
import { defineStepKind, type StepKind } from '@ces/language';
import { text } from './arg-types.ts';

/** Runs in `sandbox`: parsing and walking megabytes of JSON takes longer than the worker's thread may be held. */
export function createJsonFindPropertyStep(sandbox: Sandbox): StepKind {
  return defineStepKind({
    kind: 'json.find-property',
    pure: true,
    description:
      'Finds every property named `property`, at any depth, in the JSON text `json`, in document order. Malformed JSON fails the step, saying what is wrong. Result: `{ result, count }`: a single scalar value is its text, anything else JSON text (an array of the values when several match, `[]` when none).',
    argsSchema: z.strictObject({ json: text, property: z.string().min(1, 'the property name is empty').max(1000) }),
    example: { json: '{{inputs.JSON}}', property: '{{inputs.Property}}' },
    run: async (args, context) => sandbox.findJsonProperty(args, context.signal),
  });
}
