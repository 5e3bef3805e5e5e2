import { z } from 'zod';
import type { ScheduleStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { BASE_PATH } from '../base-path.ts';
import { ApiError } from '../errors/api-error.ts';
import { runAccepted } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, RUN_ACCEPTED_HEADERS, type Operation } from '../openapi/operation.ts';
import { runAcceptedSchema } from '../openapi/wire-schemas.ts';
import { checkedScheduleName, requireScheduleWriter } from '../schedules/schedule-access.ts';
import type { ScheduleRuns } from '../schedules/schedule-runs.ts';
import { tickBuffered } from '../schedules/schedule-representation.ts';
import { scheduleNameParamsSchema, tickBufferedSchema } from '../schedules/schedule-schemas.ts';

export const triggerScheduleOperation: Operation = {
  method: 'post',
  path: `${BASE_PATH}/schedules/{name}/trigger`,
  operationId: 'triggerSchedule',
  tags: ['Schedules'],
  summary: 'Run a schedule now',
  description:
    'Extension. Starts a tick now, answered as an asynchronous run is; it counts as a run of the schedule. While the run of its last tick goes on: ' +
    'under `skip` it starts nothing and answers 409 (counted as skipped); under `buffer-one` the tick waits and starts once that run has ended, ' +
    'answered 202 with the id its run will have and the status `BUFFERED`, without `Location` (409, counted as skipped, when another tick waits already).',
  security: ACCOUNT_SECURITY,
  request: { params: scheduleNameParamsSchema },
  responses: {
    202: answer('Started (`Location` names the run), or left waiting under `buffer-one` (`TickBuffered`).', z.union([runAcceptedSchema, tickBufferedSchema]), {
      Location: { ...RUN_ACCEPTED_HEADERS.Location, required: false },
    }),
    ...errorAnswers(['CONFLICT', 'PAYLOAD_TOO_LARGE']),
  },
};

export function triggerScheduleRoute(deps: { schedules: ScheduleStore; scheduleRuns: ScheduleRuns }) {
  return new Hono<AppEnv>().post('/schedules/:name/trigger', async (c) => {
    const principal = c.get('principal');
    requireScheduleWriter(principal, 'trigger schedules');
    const schedule = await deps.schedules.get(principal.account, checkedScheduleName(c.req.param('name')));
    if (!schedule) throw new ApiError('NOT_FOUND', 'No such schedule.');
    const now = Date.now();
    const started = await deps.scheduleRuns.startTick(principal, schedule, now);
    if (started.outcome === 'skipped') {
      const why = schedule.spec.overlap === 'buffer-one' ? 'and another tick waits for it' : `under overlap "${schedule.spec.overlap}"`;
      throw new ApiError('CONFLICT', `The last run of this schedule is still going, ${why}: nothing was started.`);
    }
    if (started.outcome === 'waits') {
      c.set('executionId', started.id);
      return respond(c, 202, tickBuffered(schedule, started.id, now));
    }
    c.set('executionId', started.record.id);
    return respond(c, 202, runAccepted(started.record), { Location: `${BASE_PATH}/choreo-executions/${started.record.id}` });
  });
}
