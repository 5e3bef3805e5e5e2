import type { ScheduleStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { BASE_PATH } from '../base-path.ts';
import { ApiError } from '../errors/api-error.ts';
import { respond } from '../formats/respond.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { checkedScheduleName } from '../schedules/schedule-access.ts';
import { scheduleDetails } from '../schedules/schedule-representation.ts';
import type { ScheduleRuns } from '../schedules/schedule-runs.ts';
import { scheduleNameParamsSchema, scheduleSchema } from '../schedules/schedule-schemas.ts';

export const getScheduleOperation: Operation = {
  method: 'get',
  path: `${BASE_PATH}/schedules/{name}`,
  operationId: 'getSchedule',
  tags: ['Schedules'],
  summary: 'Schedule details',
  description: 'Extension. The schedule, its state, its next five ticks, its last run and its status, and its fired, skipped and missed counts.',
  security: ACCOUNT_SECURITY,
  request: { params: scheduleNameParamsSchema },
  responses: { 200: answer('The schedule.', scheduleSchema), ...errorAnswers() },
};

export function getScheduleRoute(deps: { schedules: ScheduleStore; scheduleRuns: ScheduleRuns }) {
  return new Hono<AppEnv>().get('/schedules/:name', async (c) => {
    const schedule = await deps.schedules.get(c.get('principal').account, checkedScheduleName(c.req.param('name')));
    if (!schedule) throw new ApiError('NOT_FOUND', 'No such schedule.');
    return respond(c, 200, scheduleDetails(await deps.scheduleRuns.show(schedule)));
  });
}
