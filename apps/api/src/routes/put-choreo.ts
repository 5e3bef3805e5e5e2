import { choreoDocumentJsonSchema } from '@ces/language';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { readFromClient } from '../errors/client-closed-request.ts';
import { bodyText } from '../formats/body-text.ts';
import { bodyFormat } from '../formats/negotiate.ts';
import { choreoDetails, documentProblems } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { requestBodyLimit } from '../middleware/request-body-limit.ts';
import type { ChoreoLookup } from '../runs/choreo-lookup.ts';
import type { ChoreoWrites } from '../runs/choreo-writes.ts';
import { choreoIdFromPath } from './choreo-path.ts';
import { checkChoreoWrite } from './choreo-write-access.ts';
import { BASE_PATH } from '../base-path.ts';
import { choreoIdParamsSchema } from '../formats/request-schemas.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { choreoDetailsSchema } from '../openapi/wire-schemas.ts';

export const putChoreoOperation: Operation = {
  method: 'put',
  path: `${BASE_PATH}/choreos/{id}`,
  operationId: 'putChoreo',
  tags: ['Account Choreos'],
  summary: "Create or replace one of the account's own Choreos",
  description:
    'Extension. Stores the Choreo document of the body (JSON only) as a new version of the id. A document that is not one answers 400 with `problems`, each at a JSON pointer.',
  security: ACCOUNT_SECURITY,
  request: {
    params: choreoIdParamsSchema,
    body: {
      description: 'A Choreo document (see the Choreo language documentation for its steps).',
      required: true,
      content: { 'application/json': { schema: choreoDocumentJsonSchema() } },
    },
  },
  responses: {
    200: answer('Replaced: the new version.', choreoDetailsSchema),
    201: answer('Created; `Location` names it.', choreoDetailsSchema),
    ...errorAnswers(['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']),
  },
};

/** PUT /choreos/<id>: creates (201) or replaces (200) one of the account's own Choreos, as a new version. */
export function putChoreoRoute(deps: { lookup: ChoreoLookup; writes: ChoreoWrites; basePath: string }) {
  return new Hono<AppEnv>().put('/choreos/:id{.+}', requestBodyLimit({ maxBytes: deps.writes.documentLimits.maxBytes }), async (c) => {
    const principal = c.get('principal');
    const id = choreoIdFromPath(c, deps.basePath);
    checkChoreoWrite(deps.lookup, principal, id);
    const contentType = c.req.header('content-type');
    if (bodyFormat(contentType) !== 'json') throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'A Choreo document is JSON: send it as application/json.');
    const document = bodyText(await readFromClient(c, () => c.req.arrayBuffer()), contentType);
    const written = await deps.writes.put(principal, id, document);
    if (!written.ok) return respond(c, 400, documentProblems(written.problems, c.get('requestId') ?? ''));
    const headers: Record<string, string> = written.created ? { Location: `${deps.basePath}/choreos${id}` } : {};
    return respond(c, written.created ? 201 : 200, choreoDetails(written.entry, written.version), headers);
  });
}
