import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { readFromClient } from '../errors/client-closed-request.ts';
import { bodyText } from '../formats/body-text.ts';
import { runAccepted } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { executionIdParamsSchema, firstIssue, redriveHeadersSchema, runRequestBodySchema } from '../formats/request-schemas.ts';
import { parseRunRequest } from '../formats/run-request.ts';
import { requestBodyLimit } from '../middleware/request-body-limit.ts';
import { ACCOUNT_SECURITY, answer, bothFormats, errorAnswers, RUN_ACCEPTED_HEADERS, RUN_REPLAYED_HEADERS, type Operation } from '../openapi/operation.ts';
import { runAcceptedSchema } from '../openapi/wire-schemas.ts';
import { BASE_PATH } from '../base-path.ts';
import { publicBaseUrlOf } from '../runs/public-base-url.ts';
import type { RunLauncher } from '../runs/run-launcher.ts';
import { EXECUTION_ID } from '../runs/visibility.ts';

export const redriveExecutionOperation: Operation = {
  method: 'post',
  path: `${BASE_PATH}/choreo-executions/{id}/redrive`,
  operationId: 'redriveExecution',
  tags: ['Executions'],
  summary: 'Redrive a failed execution',
  description:
    'Extension. Starts a new execution of a run that ended ERROR or TERMINATED_LIMIT, with the same Choreo version, options and inputs (those of the body, ' +
    'JSON or XML as for a run, replace theirs), reusing the results of every step and loop iteration it completed: the failed step, the iterations and ' +
    'parallel branches that did not complete (from their start) and what follows run. The new execution names the old one (`redriveOf`), the old one ' +
    'its latest redrive (`redrivenBy`) and keeps its status. One redrive of a run at a time: 409 while one has not ended, or when the run did not fail.',
  security: ACCOUNT_SECURITY,
  request: {
    params: executionIdParamsSchema,
    headers: redriveHeadersSchema,
    body: { description: 'Inputs that replace the run’s; optional.', required: false, content: bothFormats(runRequestBodySchema) },
  },
  responses: {
    202: answer('The redrive is accepted: its execution to poll.', runAcceptedSchema, {
      Location: RUN_ACCEPTED_HEADERS.Location,
      ...RUN_REPLAYED_HEADERS,
    }),
    ...errorAnswers(['CONFLICT', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']),
  },
};

export function redriveExecutionRoute(deps: { launcher: RunLauncher; basePath: string; bodyLimitBytes: number; publicBaseUrl?: string }) {
  return new Hono<AppEnv>().post('/choreo-executions/:id/redrive', requestBodyLimit({ maxBytes: deps.bodyLimitBytes }), async (c) => {
    const id = c.req.param('id');
    if (!EXECUTION_ID.test(id)) throw new ApiError('NOT_FOUND', 'No such execution.');
    const headers = redriveHeadersSchema.safeParse({ 'idempotency-key': c.req.header('idempotency-key') });
    if (!headers.success) throw new ApiError('BAD_REQUEST', firstIssue(headers.error));
    const idempotencyKey = headers.data['idempotency-key'];
    const contentType = c.req.header('content-type');
    const request = parseRunRequest(bodyText(await readFromClient(c, () => c.req.arrayBuffer()), contentType), contentType);
    const publicBaseUrl = publicBaseUrlOf(deps.publicBaseUrl, c.req.header('host'));
    const { record, replayed } = await deps.launcher.redrive(c.get('principal'), id, request, {
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
      ...(publicBaseUrl !== undefined ? { publicBaseUrl } : {}),
    });
    c.set('executionId', record.id);
    return respond(c, 202, runAccepted(record), {
      Location: `${deps.basePath}/choreo-executions/${record.id}`,
      ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
    });
  });
}
