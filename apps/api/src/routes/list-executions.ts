import { mayAccessChoreo } from '@ces/accounts';
import type { ExecutionStore, RunHistory } from '@ces/store';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env.ts';
import { BASE_PATH } from '../base-path.ts';
import { ApiError } from '../errors/api-error.ts';
import { historyQueryOf } from '../formats/history-query.ts';
import { historyList, runningList } from '../formats/representations.ts';
import { encodeHistoryCursor, firstIssue, historyQuerySchema } from '../formats/request-schemas.ts';
import { respond } from '../formats/respond.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { historyPageSchema, runningListSchema } from '../openapi/wire-schemas.ts';

export const listExecutionsOperation: Operation = {
  method: 'get',
  path: `${BASE_PATH}/choreo-executions`,
  operationId: 'listExecutions',
  tags: ['Executions'],
  summary: 'List executions',
  description:
    "Without parameters, the account's executions still RUNNING, of the Choreos the credentials may see. With any parameter (extension), its retained executions newest first, in pages.",
  security: ACCOUNT_SECURITY,
  request: { query: historyQuerySchema },
  responses: { 200: answer('The running executions, or a page of the retained ones.', z.union([runningListSchema, historyPageSchema])), ...errorAnswers() },
};

export function listExecutionsRoute(deps: { executions: ExecutionStore; history: RunHistory }) {
  return new Hono<AppEnv>().get('/choreo-executions', async (c) => {
    const principal = c.get('principal');
    const params = c.req.query();
    if (Object.keys(params).length === 0) {
      const running = await deps.executions.listRunning(principal.account);
      return respond(c, 200, runningList(running.filter((record) => mayAccessChoreo(principal.choreos, record.choreo))));
    }
    const query = historyQuerySchema.safeParse(params);
    if (!query.success) throw new ApiError('BAD_REQUEST', firstIssue(query.error));
    const page = await deps.history.list({
      ...historyQueryOf(query.data),
      account: principal.account,
      include: (entry) => mayAccessChoreo(principal.choreos, entry.choreo),
    });
    return respond(c, 200, historyList(page.entries, page.next && encodeHistoryCursor(page.next)));
  });
}
