import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { choreoList } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import type { ChoreoLookup } from '../runs/choreo-lookup.ts';

/** The shared catalogue's Choreos and the account's own, each id once, as far as the credential may see. */
export function listChoreosRoute(deps: { choreos: ChoreoLookup }) {
  return new Hono<AppEnv>().get('/choreos', async (c) => respond(c, 200, choreoList(await deps.choreos.ids(c.get('principal')))));
}
