import { mayAccessChoreo } from '@ces/accounts';
import type { ExecutionStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { runningList } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';

export function listExecutionsRoute(deps: { executions: ExecutionStore }) {
  return new Hono<AppEnv>().get('/choreo-executions', async (c) => {
    const principal = c.get('principal');
    const running = await deps.executions.listRunning(principal.account);
    return respond(c, 200, runningList(running.filter((record) => mayAccessChoreo(principal.choreos, record.choreo))));
  });
}
