import { z } from 'zod';
import { ChildFailedError, ChildRefusedError, defineStepKind, StepAbortedError } from '@ces/language';

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
  run: async (args, context) => {
    const children = context.childRuns;
    if (children === undefined) throw new ChildRefusedError('sub-Choreos run only on a worker');
    const { id } = await children.start({ choreo: args.choreo, inputs: args.inputs, address: context.address ?? '' });
    if (context.signal.aborted) throw new StepAbortedError(context.signal.reason);
    const ended = await children.awaitEnd(id, context.signal);
    if (ended.status !== 'SUCCESS') throw new ChildFailedError(id, ended.status, ended.error);
    return { executionId: id, status: ended.status, outputs: ended.outputs };
  },
});
