import type { ExecutionStore, ExecutionSummary } from '@ces/store';
import type { HttpBindings } from '@hono/node-server';
import type { OutputReadGate } from '../output-read-gate.ts';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { executionStatus } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { EXECUTION_ID, isExecutionVisible } from '../runs/visibility.ts';

/**
 * Outputs may be 16 Mi characters: their reads go through `outputReads` when given, on a
 * connection of their own, so that the replies do not hold every status poll and authentication
 * behind them, and past its gate, which holds each admission until the answer has been sent.
 */
export function getExecutionRoute(deps: { executions: ExecutionStore; outputReads?: { executions: ExecutionStore; gate: OutputReadGate } }) {
  return new Hono<AppEnv>().get('/choreo-executions/:id', async (c) => {
    const id = c.req.param('id');
    const view = c.req.query('view');
    if (view !== undefined && view !== 'outputs') throw new ApiError('BAD_REQUEST', 'view must be "outputs" when given.');
    if (!EXECUTION_ID.test(id)) throw new ApiError('NOT_FOUND', 'No such execution.');
    const principal = c.get('principal');
    let record: ExecutionSummary | undefined;
    if (view === 'outputs' && deps.outputReads) {
      const leave = await deps.outputReads.gate.enter(principal.account);
      // Until the answer is sent (or its connection is gone): then it no longer takes memory here.
      // A client that left while it waited at the gate has nothing left to close.
      const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
      if (outgoing?.closed) leave();
      else outgoing?.once('close', leave);
      try {
        record = await deps.outputReads.executions.summary(id, { withOutputs: true });
      } finally {
        if (!outgoing) leave();
      }
    } else {
      record = await deps.executions.summary(id, { withOutputs: view === 'outputs' });
    }
    if (!record || !isExecutionVisible(principal, record)) throw new ApiError('NOT_FOUND', 'No such execution.');
    return respond(c, 200, executionStatus(record, view === 'outputs'));
  });
}
