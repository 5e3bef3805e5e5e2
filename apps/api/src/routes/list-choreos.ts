import { mayAccessChoreo } from '@ces/accounts';
import type { Catalogue } from '@ces/choreos';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { choreoList } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';

export function listChoreosRoute(deps: { catalogue: Catalogue }) {
  return new Hono<AppEnv>().get('/choreos', (c) => {
    const principal = c.get('principal');
    const ids = deps.catalogue
      .list()
      .map((entry) => entry.id)
      .filter((id) => mayAccessChoreo(principal.choreos, id));
    return respond(c, 200, choreoList(ids));
  });
}
