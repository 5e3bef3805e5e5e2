import type { HistoryQuery } from '@ces/store';
import type { z } from 'zod';
import { ApiError } from '../errors/api-error.ts';
import type { historyQuerySchema } from './request-schemas.ts';

const DEFAULT_LIMIT = 50;

/**
 * The run history's query from the parameters `historyQuerySchema` parsed, for the accounts' list
 * and the operators' alike: `any` is every status, 50 entries unless `limit` says otherwise, and a
 * range that ends before it starts is refused.
 */
export function historyQueryOf(parameters: z.output<typeof historyQuerySchema>): HistoryQuery {
  const { status, choreo, since, until, limit, cursor } = parameters;
  if (since !== undefined && until !== undefined && since > until) throw new ApiError('BAD_REQUEST', 'since must not be after until.');
  return {
    ...(status !== undefined && status !== 'any' ? { status } : {}),
    ...(choreo !== undefined ? { choreo } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(until !== undefined ? { until } : {}),
    ...(cursor !== undefined ? { cursor } : {}),
    limit: limit ?? DEFAULT_LIMIT,
  };
}
