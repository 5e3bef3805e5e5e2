import { mayAccessChoreo } from '@ces/accounts';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import type { ChoreoLookup } from '../runs/choreo-lookup.ts';
import type { ChoreoWrites } from '../runs/choreo-writes.ts';
import { choreoIdFromPath } from './choreo-path.ts';
import { checkChoreoWrite } from './choreo-write-access.ts';
import { BASE_PATH } from '../base-path.ts';
import { choreoIdParamsSchema } from '../formats/request-schemas.ts';
import { ACCOUNT_SECURITY, errorAnswers, type Operation } from '../openapi/operation.ts';

export const deleteChoreoOperation: Operation = {
  method: 'delete',
  path: `${BASE_PATH}/choreos/{id}`,
  operationId: 'deleteChoreo',
  tags: ['Account Choreos'],
  summary: "Delete one of the account's own Choreos",
  description: 'Extension. The id is gone for reading and running; runs already accepted keep the definition they were accepted with.',
  security: ACCOUNT_SECURITY,
  request: { params: choreoIdParamsSchema },
  responses: { 204: { description: 'Deleted.' }, ...errorAnswers() },
};

/**
 * DELETE /choreos/<id>: 204, and the id is gone for reading and running. Runs already accepted
 * keep the definition they were accepted with (its snapshot, by digest), whatever happens to it.
 */
export function deleteChoreoRoute(deps: { lookup: ChoreoLookup; writes: ChoreoWrites; basePath: string }) {
  return new Hono<AppEnv>().delete('/choreos/:id{.+}', async (c) => {
    const principal = c.get('principal');
    const id = choreoIdFromPath(c, deps.basePath);
    // What the credential cannot read does not exist for it, as for GET.
    if (!mayAccessChoreo(principal.choreos, id) && !deps.lookup.isShared(id)) throw new ApiError('NOT_FOUND', 'No such Choreo.');
    checkChoreoWrite(deps.lookup, principal, id);
    if (!(await deps.writes.delete(principal, id))) throw new ApiError('NOT_FOUND', 'No such Choreo.');
    return c.body(null, 204);
  });
}
