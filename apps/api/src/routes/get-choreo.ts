import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { choreoDetails } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import type { ChoreoLookup } from '../runs/choreo-lookup.ts';
import { choreoIdFromPath } from './choreo-path.ts';

export function getChoreoRoute(deps: { choreos: ChoreoLookup; basePath: string }) {
  return new Hono<AppEnv>().get('/choreos/:id{.+}', async (c) => {
    const found = await deps.choreos.find(c.get('principal'), choreoIdFromPath(c, deps.basePath));
    if (!found) throw new ApiError('NOT_FOUND', 'No such Choreo.');
    return respond(c, 200, choreoDetails(found.entry, found.version));
  });
}
