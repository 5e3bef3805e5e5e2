import type { ExecutionStore } from '@ces/store';
import type { ConcurrencyLimit } from '../concurrency-limit.ts';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { executionStatus } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { EXECUTION_ID, isExecutionVisible } from '../runs/visibility.ts';

/**
 * Outputs may be 16 Mi characters: their reads go through `outputReads` when given, a few at a time
 * on a connection of their own, so that a burst of them neither holds the API's memory nor queues
 * every status poll and authentication behind their replies.
 */
export function getExecutionRoute(deps: { executions: ExecutionStore; outputReads?: { executions: ExecutionStore; limit: ConcurrencyLimit } }) {
  return new Hono<AppEnv>().get('/choreo-executions/:id', async (c) => {
    const id = c.req.param('id');
    const view = c.req.query('view');
    if (view !== undefined && view !== 'outputs') throw new ApiError('BAD_REQUEST', 'view must be "outputs" when given.');
    const record = !EXECUTION_ID.test(id)
      ? undefined
      : view === 'outputs' && deps.outputReads
        ? await deps.outputReads.limit(() => deps.outputReads!.executions.summary(id, { withOutputs: true }))
        : await deps.executions.summary(id, { withOutputs: view === 'outputs' });
    if (!record || !isExecutionVisible(c.get('principal'), record)) throw new ApiError('NOT_FOUND', 'No such execution.');
    return respond(c, 200, executionStatus(record, view === 'outputs'));
  });
}
