import type { ExecutionStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { executionStatus } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { EXECUTION_ID, isExecutionVisible } from '../runs/visibility.ts';

export function getExecutionRoute(deps: { executions: ExecutionStore }) {
  return new Hono<AppEnv>().get('/choreo-executions/:id', async (c) => {
    const id = c.req.param('id');
    const view = c.req.query('view');
    if (view !== undefined && view !== 'outputs') throw new ApiError('BAD_REQUEST', 'view must be "outputs" when given.');
    const record = EXECUTION_ID.test(id) ? await deps.executions.summary(id, { withOutputs: view === 'outputs' }) : undefined;
    if (!record || !isExecutionVisible(c.get('principal'), record)) throw new ApiError('NOT_FOUND', 'No such execution.');
    return respond(c, 200, executionStatus(record, view === 'outputs'));
  });
}
