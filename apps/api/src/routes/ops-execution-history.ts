import type { RunHistory } from '@ces/store';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { historyQueryOf } from '../formats/history-query.ts';
import { encodeHistoryCursor, firstIssue, historyQuerySchema } from '../formats/request-schemas.ts';
import { respond } from '../formats/respond.ts';

/** The run history's query for operators: every account's runs, or one account's. */
export const opsHistoryQuerySchema = historyQuerySchema.extend({
  account: z
    .string()
    .regex(/^[\w.-]{1,64}$/, 'account must be an account name.')
    .optional(),
});

/**
 * `GET /ops/executions/history`: the retained runs of all accounts (or `?account=`), newest first,
 * with the parameters of the account's run history; each entry names its account.
 */
export function opsExecutionHistoryRoute(deps: { history: RunHistory }) {
  return new Hono<AppEnv>().get('/executions/history', async (c) => {
    const query = opsHistoryQuerySchema.safeParse(c.req.query());
    if (!query.success) throw new ApiError('BAD_REQUEST', firstIssue(query.error));
    const { account, ...parameters } = query.data;
    const page = await deps.history.list({ ...historyQueryOf(parameters), ...(account !== undefined ? { account } : {}) });
    const executions = page.entries.map((entry) => ({
      id: entry.id,
      account: entry.account,
      choreo: entry.choreo,
      starttime: String(entry.starttime),
      host: entry.host,
      status: entry.status,
      endtime: entry.endtime === undefined ? '' : String(entry.endtime),
    }));
    const next = page.next && encodeHistoryCursor(page.next);
    if (next === undefined) return respond(c, 200, { json: { executions }, xml: { root: 'executions', tree: { execution: executions } } });
    return respond(c, 200, { json: { executions, next }, xml: { root: 'executions', tree: { execution: executions, next } } });
  });
}
