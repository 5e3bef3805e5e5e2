import type { WebhookStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { readFromClient } from '../errors/client-closed-request.ts';
import { requestBodyLimit } from '../middleware/request-body-limit.ts';
import { bodyText } from '../formats/body-text.ts';
import { runAccepted, runResult } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { firstIssue, runHeadersSchema, runQuerySchema, runRequestBodySchema, choreoIdParamsSchema } from '../formats/request-schemas.ts';
import { parseRunRequest } from '../formats/run-request.ts';
import { ACCOUNT_SECURITY, answer, bothFormats, errorAnswers, RUN_ACCEPTED_HEADERS, RUN_REPLAYED_HEADERS, type Operation } from '../openapi/operation.ts';
import { runAcceptedSchema, runResultSchema } from '../openapi/wire-schemas.ts';
import { BASE_PATH } from '../base-path.ts';
import type { ChoreoLookup } from '../runs/choreo-lookup.ts';
import type { RunLauncher } from '../runs/run-launcher.ts';
import { publicBaseUrlOf } from '../runs/public-base-url.ts';
import type { SealedOutputsOpener } from '../runs/sealed-outputs-opener.ts';
import { httpsUrlProblem } from '../webhooks/https-url.ts';
import { choreoIdFromPath } from './choreo-path.ts';

function wantsAsync(mode: 'async' | 'sync' | undefined, prefer: string | undefined): boolean {
  if (mode !== undefined) return mode === 'async';
  return prefer?.split(/[,;]/).some((token) => token.trim().toLowerCase() === 'respond-async') ?? false;
}

export const runChoreoOperation: Operation = {
  method: 'post',
  path: `${BASE_PATH}/choreos/{id}`,
  operationId: 'runChoreo',
  tags: ['Choreos'],
  summary: 'Run a Choreo',
  description:
    'Starts a run with the inputs of the body (JSON or XML; empty for none). Waits for its end as long as the service allows and answers 200 with the outputs, ' +
    'or 202 with the execution to poll. Extensions: `preset` and `outputFilters` in the body; `mode`, `source_id`, `store_results` and `notify` in the query; ' +
    '`Prefer: respond-async` and `Idempotency-Key` as headers.',
  security: ACCOUNT_SECURITY,
  request: {
    params: choreoIdParamsSchema,
    query: runQuerySchema,
    headers: runHeadersSchema,
    body: { description: 'The inputs; optional.', required: false, content: bothFormats(runRequestBodySchema) },
  },
  responses: {
    200: answer('The run ended while the request waited: its outputs.', runResultSchema, RUN_REPLAYED_HEADERS),
    202: answer('Accepted and still going (or asked to run asynchronously).', runAcceptedSchema, RUN_ACCEPTED_HEADERS),
    ...errorAnswers(['CONFLICT', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']),
  },
};

const withPublicBaseUrl = (publicBaseUrl: string | undefined) => (publicBaseUrl !== undefined ? { publicBaseUrl } : {});

export function runChoreoRoute(deps: {
  choreos: ChoreoLookup;
  launcher: RunLauncher;
  basePath: string;
  bodyLimitBytes: number;
  /** Opens the secret outputs of a run that ended, for its caller. */
  openSealedOutputs: SealedOutputsOpener;
  /** PUBLIC_BASE_URL; without it each run's public address comes from the request's Host. */
  publicBaseUrl?: string;
  /** Where `?notify=` finds the account's notify secret; without it the parameter is refused. */
  webhooks?: WebhookStore;
}) {
  return new Hono<AppEnv>().post('/choreos/:id{.+}', requestBodyLimit({ maxBytes: deps.bodyLimitBytes }), async (c) => {
    const principal = c.get('principal');
    const found = await deps.choreos.find(principal, choreoIdFromPath(c, deps.basePath));
    if (!found) throw new ApiError('NOT_FOUND', 'No such Choreo.');
    const query = runQuerySchema.safeParse(c.req.query());
    if (!query.success) throw new ApiError('BAD_REQUEST', firstIssue(query.error));
    const headers = runHeadersSchema.safeParse({ prefer: c.req.header('prefer'), 'idempotency-key': c.req.header('idempotency-key') });
    if (!headers.success) throw new ApiError('BAD_REQUEST', firstIssue(headers.error));
    const runAsync = wantsAsync(query.data.mode, headers.data.prefer);
    const sourceId = query.data.source_id ?? '';
    const storeResults = ['true', '1'].includes(query.data.store_results?.toLowerCase() ?? '');
    const idempotencyKey = headers.data['idempotency-key'];
    const notifyUrl = query.data.notify;
    if (notifyUrl !== undefined) {
      const problem = httpsUrlProblem(notifyUrl);
      if (problem) throw new ApiError('BAD_REQUEST', `notify ${problem}.`);
      if (!(await deps.webhooks?.notifySecret(principal.account)))
        throw new ApiError('BAD_REQUEST', "notify needs the account's notify secret to sign with: create it first (PUT /webhooks/notify with {}).");
    }
    const contentType = c.req.header('content-type');
    // Bytes, not c.req.text(), which would turn what is not UTF-8 into U+FFFD without a word. Its
    // arrayBuffer() costs @hono/node-server one copy of the body (about 1 µs for a small one, a
    // tenth of a millisecond a MiB): the only way to the bytes; they are decoded where they are.
    const request = parseRunRequest(bodyText(await readFromClient(c, () => c.req.arrayBuffer()), contentType), contentType);

    const { record, ended, replayed } = await deps.launcher.launch(principal, found.entry, request, {
      ...(found.version !== undefined ? { choreoVersion: found.version } : {}),
      wait: !runAsync,
      sourceId,
      storeResults,
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
      ...(notifyUrl !== undefined ? { notifyUrl } : {}),
      ...withPublicBaseUrl(publicBaseUrlOf(deps.publicBaseUrl, c.req.header('host'))),
    });
    c.set('executionId', record.id);
    const replayHeader: Record<string, string> = replayed ? { 'Idempotent-Replayed': 'true' } : {};
    if (!runAsync && ended) return respond(c, 200, runResult(deps.openSealedOutputs(record)), replayHeader);
    const location = `${deps.basePath}/choreo-executions/${record.id}`;
    return respond(c, 202, runAccepted(record), { Location: location, ...(runAsync ? { 'Preference-Applied': 'respond-async' } : {}), ...replayHeader });
  });
}
