import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { choreoList } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import type { ChoreoLookup } from '../runs/choreo-lookup.ts';
import { BASE_PATH } from '../base-path.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { choreoListSchema } from '../openapi/wire-schemas.ts';

export const listChoreosOperation: Operation = {
  method: 'get',
  path: `${BASE_PATH}/choreos`,
  operationId: 'listChoreos',
  tags: ['Choreos'],
  summary: 'List Choreos',
  description: "The ids of the catalogue's Choreos and of the account's own, each once, as far as the credentials may see.",
  security: ACCOUNT_SECURITY,
  responses: { 200: answer('The Choreo ids.', choreoListSchema), ...errorAnswers() },
};

/** The shared catalogue's Choreos and the account's own, each id once, as far as the credential may see. */
export function listChoreosRoute(deps: { choreos: ChoreoLookup }) {
  return new Hono<AppEnv>().get('/choreos', async (c) => respond(c, 200, choreoList(await deps.choreos.ids(c.get('principal')))));
}
