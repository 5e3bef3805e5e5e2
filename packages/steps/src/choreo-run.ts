import { z } from 'zod';
import { defineStepKind, startChild } from '@ces/language';

export const choreoRunArgsSchema = z.strictObject({
  choreo: z.string().min(1).max(1000),
  inputs: z.record(z.string(), z.string()).default({}),
});

export const choreoRunStep = defineStepKind({
  kind: 'choreo.run',
  description:
    "Runs another Choreo as a child execution of this one and waits for its end: `choreo` is its id, `inputs` its inputs (strings). The child has its own execution id, is listed and read like any execution, shares the parent's deadline, and is terminated with its parent. A child that does not end SUCCESS fails the step with the error type `child-failed`. Never retried. Result: `{ executionId, status, outputs }`.",
  argsSchema: choreoRunArgsSchema,
  // The child's own time limit (at most the parent's) bounds the wait.
  defaultTimeoutMs: 24 * 60 * 60 * 1000,
  example: { choreo: '/Library/Utilities/Encoding/Base64Encode', inputs: { Text: '{{inputs.Text}}' } },
  // The interpreter starts the child and waits for it (runChild), under the step's timeout and signal.
  run: async (args) => startChild(args.choreo, args.inputs),
});
