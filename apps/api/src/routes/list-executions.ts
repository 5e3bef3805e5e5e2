import { mayAccessChoreo } from '@ces/accounts';
import type { ExecutionStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { runningList } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { BASE_PATH } from '../base-path.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { runningListSchema } from '../openapi/wire-schemas.ts';

export const listExecutionsOperation: Operation = {
  method: 'get',
  path: `${BASE_PATH}/choreo-executions`,
  operationId: 'listExecutions',
  tags: ['Executions'],
  summary: 'List running executions',
  description: "The account's executions still RUNNING, of the Choreos the credentials may see.",
  security: ACCOUNT_SECURITY,
  responses: { 200: answer('The running executions.', runningListSchema), ...errorAnswers() },
};

export function listExecutionsRoute(deps: { executions: ExecutionStore }) {
  return new Hono<AppEnv>().get('/choreo-executions', async (c) => {
    const principal = c.get('principal');
    const running = await deps.executions.listRunning(principal.account);
    return respond(c, 200, runningList(running.filter((record) => mayAccessChoreo(principal.choreos, record.choreo))));
  });
}
