import type { ScheduleStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { BASE_PATH } from '../base-path.ts';
import { respond } from '../formats/respond.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { scheduleList } from '../schedules/schedule-representation.ts';
import type { ScheduleRuns } from '../schedules/schedule-runs.ts';
import { scheduleListSchema } from '../schedules/schedule-schemas.ts';

export const listSchedulesOperation: Operation = {
  method: 'get',
  path: `${BASE_PATH}/schedules`,
  operationId: 'listSchedules',
  tags: ['Schedules'],
  summary: "List the account's schedules",
  description: 'Extension. Every schedule of the account, by name, with its state, next ticks, last run and counts.',
  security: ACCOUNT_SECURITY,
  responses: { 200: answer('The schedules.', scheduleListSchema), ...errorAnswers() },
};

export function listSchedulesRoute(deps: { schedules: ScheduleStore; scheduleRuns: ScheduleRuns }) {
  return new Hono<AppEnv>().get('/schedules', async (c) => {
    const schedules = await deps.schedules.list(c.get('principal').account);
    return respond(c, 200, scheduleList(await Promise.all(schedules.map((schedule) => deps.scheduleRuns.show(schedule)))));
  });
}
