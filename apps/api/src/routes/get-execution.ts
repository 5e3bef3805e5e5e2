import type { ExecutionStore, ExecutionSummary } from '@ces/store';
import type { HttpBindings } from '@hono/node-server';
import type { OutputReadGate } from '../output-read-gate.ts';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { ClientClosedRequest } from '../errors/client-closed-request.ts';
import { executionStatus, executionSteps } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import type { SealedErrorMask } from '../runs/sealed-error-mask.ts';
import type { SealedOutputsOpener } from '../runs/sealed-outputs-opener.ts';
import { EXECUTION_ID, isExecutionVisible } from '../runs/visibility.ts';
import { BASE_PATH } from '../base-path.ts';
import { executionIdParamsSchema, executionQuerySchema, firstIssue } from '../formats/request-schemas.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { executionStatusSchema } from '../openapi/wire-schemas.ts';

export const getExecutionOperation: Operation = {
  method: 'get',
  path: `${BASE_PATH}/choreo-executions/{id}`,
  operationId: 'getExecution',
  tags: ['Executions'],
  summary: 'Execution status',
  description: "An execution's status; `?view=outputs` adds its outputs, `?view=steps` its step history (extensions).",
  security: ACCOUNT_SECURITY,
  request: { params: executionIdParamsSchema, query: executionQuerySchema },
  responses: { 200: answer('The execution.', executionStatusSchema), ...errorAnswers() },
};

/**
 * Outputs may be 16 Mi characters: their reads go through `outputReads` when given, on a
 * connection of their own, so that the replies do not hold every status poll and authentication
 * behind them, and past its gate, which holds each admission until the answer has been sent.
 */
export function getExecutionRoute(deps: {
  executions: ExecutionStore;
  outputReads?: { executions: ExecutionStore; gate: OutputReadGate };
  /** Masks the sealed inputs of a run in its error; the error as stored without it. */
  maskSealedInputs?: SealedErrorMask;
  /** Opens the run's secret outputs for `?view=outputs`. */
  openSealedOutputs: SealedOutputsOpener;
}) {
  return new Hono<AppEnv>().get('/choreo-executions/:id', async (c) => {
    const id = c.req.param('id');
    const query = executionQuerySchema.safeParse(c.req.query());
    if (!query.success) throw new ApiError('BAD_REQUEST', firstIssue(query.error));
    const { view } = query.data;
    if (!EXECUTION_ID.test(id)) throw new ApiError('NOT_FOUND', 'No such execution.');
    const principal = c.get('principal');
    let record: ExecutionSummary | undefined;
    if (view === 'outputs' && deps.outputReads) {
      const leave = await deps.outputReads.gate.enter(principal.account);
      const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
      // A client that left while it waited: nothing to read for.
      if (outgoing?.closed) {
        leave();
        throw new ClientClosedRequest(new Error('the connection closed while the read waited for its turn'));
      }
      try {
        record = await deps.outputReads.executions.summary(id, { withOutputs: true });
      } finally {
        // The place is held while the read runs, whatever the client does meanwhile, then until the
        // answer is sent (or its connection gone): till then it takes memory here.
        if (!outgoing || outgoing.closed) leave();
        else outgoing.once('close', leave);
      }
    } else {
      record = await deps.executions.summary(id, { withOutputs: view === 'outputs' });
    }
    if (!record || !isExecutionVisible(principal, record)) throw new ApiError('NOT_FOUND', 'No such execution.');
    const masked = deps.maskSealedInputs ? await deps.maskSealedInputs(record) : record;
    const shown = view === 'outputs' ? deps.openSealedOutputs(masked) : masked;
    // Read once the record says who may see it: the history is bounded (a thousand events by default).
    if (view === 'steps') return respond(c, 200, executionSteps(shown, await deps.executions.stepHistory(id)));
    return respond(c, 200, executionStatus(shown, view === 'outputs'));
  });
}
