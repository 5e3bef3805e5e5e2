import type { Catalogue } from '@ces/choreos';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { choreoDetails } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { visibleChoreo } from '../runs/visibility.ts';
import { choreoIdFromPath } from './choreo-path.ts';

export function getChoreoRoute(deps: { catalogue: Catalogue; basePath: string }) {
  return new Hono<AppEnv>().get('/choreos/:id{.+}', (c) => {
    const entry = visibleChoreo(deps.catalogue, c.get('principal'), choreoIdFromPath(c, deps.basePath));
    if (!entry) throw new ApiError('NOT_FOUND', 'No such Choreo.');
    return respond(c, 200, choreoDetails(entry));
  });
}
