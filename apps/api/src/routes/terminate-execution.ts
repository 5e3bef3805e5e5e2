import type { ExecutionQueues, ExecutionStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { terminateExecution } from '../runs/terminator.ts';
import { EXECUTION_ID, isExecutionVisible } from '../runs/visibility.ts';
import { BASE_PATH } from '../base-path.ts';
import { executionIdParamsSchema } from '../formats/request-schemas.ts';
import { ACCOUNT_SECURITY, errorAnswers, type Operation } from '../openapi/operation.ts';

export const terminateExecutionOperation: Operation = {
  method: 'delete',
  path: `${BASE_PATH}/choreo-executions/{id}`,
  operationId: 'terminateExecution',
  tags: ['Executions'],
  summary: 'Terminate an execution',
  description: 'Ends a RUNNING execution as TERMINATED_MANUALLY, after its current step; one that has ended already answers 409.',
  security: ACCOUNT_SECURITY,
  request: { params: executionIdParamsSchema },
  responses: { 204: { description: 'Terminated, or its termination requested.' }, ...errorAnswers(['CONFLICT']) },
};

export function terminateExecutionRoute(deps: { executions: ExecutionStore; queues: ExecutionQueues }) {
  return new Hono<AppEnv>().delete('/choreo-executions/:id', async (c) => {
    const id = c.req.param('id');
    // Who may see it needs its account and Choreo: never the whole record, whose outputs may be 16 MiB.
    const record = EXECUTION_ID.test(id) ? await deps.executions.summary(id, { withOutputs: false }) : undefined;
    if (!record || !isExecutionVisible(c.get('principal'), record)) throw new ApiError('NOT_FOUND', 'No such execution.');
    await terminateExecution(deps, id);
    return c.body(null, 204);
  });
}
