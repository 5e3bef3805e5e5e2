import type { ScheduleStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { BASE_PATH } from '../base-path.ts';
import { ApiError } from '../errors/api-error.ts';
import { ACCOUNT_SECURITY, errorAnswers, type Operation } from '../openapi/operation.ts';
import { checkedScheduleName, requireScheduleWriter } from '../schedules/schedule-access.ts';
import { scheduleNameParamsSchema } from '../schedules/schedule-schemas.ts';

export const deleteScheduleOperation: Operation = {
  method: 'delete',
  path: `${BASE_PATH}/schedules/{name}`,
  operationId: 'deleteSchedule',
  tags: ['Schedules'],
  summary: 'Delete a schedule',
  description: 'Extension. No tick fires after it; a run in flight is left alone.',
  security: ACCOUNT_SECURITY,
  request: { params: scheduleNameParamsSchema },
  responses: { 204: { description: 'Deleted.' }, ...errorAnswers() },
};

export function deleteScheduleRoute(deps: { schedules: ScheduleStore }) {
  return new Hono<AppEnv>().delete('/schedules/:name', async (c) => {
    const principal = c.get('principal');
    requireScheduleWriter(principal, 'delete schedules');
    if (!(await deps.schedules.delete(principal.account, checkedScheduleName(c.req.param('name'))))) throw new ApiError('NOT_FOUND', 'No such schedule.');
    return c.body(null, 204);
  });
}
