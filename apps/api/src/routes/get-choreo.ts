import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { choreoDetails } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import type { ChoreoLookup } from '../runs/choreo-lookup.ts';
import { choreoIdFromPath } from './choreo-path.ts';
import { BASE_PATH } from '../base-path.ts';
import { choreoIdParamsSchema } from '../formats/request-schemas.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { choreoDetailsSchema } from '../openapi/wire-schemas.ts';

export const getChoreoOperation: Operation = {
  method: 'get',
  path: `${BASE_PATH}/choreos/{id}`,
  operationId: 'getChoreo',
  tags: ['Choreos'],
  summary: 'Choreo details',
  description: "A Choreo's inputs and outputs, each with its description and type; `version` for one of the account's own.",
  security: ACCOUNT_SECURITY,
  request: { params: choreoIdParamsSchema },
  responses: { 200: answer("The Choreo's details.", choreoDetailsSchema), ...errorAnswers() },
};

export function getChoreoRoute(deps: { choreos: ChoreoLookup; basePath: string }) {
  return new Hono<AppEnv>().get('/choreos/:id{.+}', async (c) => {
    const found = await deps.choreos.find(c.get('principal'), choreoIdFromPath(c, deps.basePath));
    if (!found) throw new ApiError('NOT_FOUND', 'No such Choreo.');
    return respond(c, 200, choreoDetails(found.entry, found.version));
  });
}
