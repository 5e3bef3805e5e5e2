import { ScheduleLimitError, type ScheduleStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { BASE_PATH } from '../base-path.ts';
import { ApiError } from '../errors/api-error.ts';
import { readFromClient } from '../errors/client-closed-request.ts';
import { bodyText } from '../formats/body-text.ts';
import { respond } from '../formats/respond.ts';
import { requestBodyLimit } from '../middleware/request-body-limit.ts';
import { ACCOUNT_SECURITY, answer, bothFormats, errorAnswers, type Operation } from '../openapi/operation.ts';
import type { ChoreoLookup } from '../runs/choreo-lookup.ts';
import { requireScheduleWriter, SCHEDULE_NAME } from '../schedules/schedule-access.ts';
import { readScheduleBody } from '../schedules/schedule-body.ts';
import { scheduleChoreoProblems } from '../schedules/schedule-choreo-check.ts';
import { scheduleProblems } from '../schedules/schedule-problems.ts';
import { scheduleDetails } from '../schedules/schedule-representation.ts';
import { checkScheduleDocument } from '../schedules/schedule-request.ts';
import type { ScheduleRuns } from '../schedules/schedule-runs.ts';
import { scheduleNameParamsSchema, scheduleRequestBodySchema, scheduleSchema } from '../schedules/schedule-schemas.ts';

export const putScheduleOperation: Operation = {
  method: 'put',
  path: `${BASE_PATH}/schedules/{name}`,
  operationId: 'putSchedule',
  tags: ['Schedules'],
  summary: 'Create or replace a schedule',
  description:
    'Extension. Runs a Choreo at the times of a cron expression in a time zone, or every fixed interval; each tick starts one run. ' +
    'A replace starts from the first tick after now. A document that is not one answers 400 with `problems`, each at a JSON pointer.',
  security: ACCOUNT_SECURITY,
  request: { params: scheduleNameParamsSchema, body: { description: 'The schedule.', required: true, content: bothFormats(scheduleRequestBodySchema) } },
  responses: {
    200: answer('Replaced: the schedule and its next five ticks.', scheduleSchema),
    201: answer('Created: the schedule and its next five ticks.', scheduleSchema),
    ...errorAnswers(['CONFLICT', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']),
  },
};

/** PUT /schedules/<name>: creates (201) or replaces (200) a schedule of the account. */
export function putScheduleRoute(deps: { schedules: ScheduleStore; scheduleRuns: ScheduleRuns; lookup: ChoreoLookup; bodyLimitBytes: number }) {
  return new Hono<AppEnv>().put('/schedules/:name', requestBodyLimit({ maxBytes: deps.bodyLimitBytes }), async (c) => {
    const principal = c.get('principal');
    requireScheduleWriter(principal, 'write schedules');
    const name = c.req.param('name');
    if (!SCHEDULE_NAME.test(name))
      throw new ApiError('BAD_REQUEST', 'A schedule name is 1 to 128 letters, digits and . _ @ -, starting with a letter or digit.');
    const contentType = c.req.header('content-type');
    const document = readScheduleBody(bodyText(await readFromClient(c, () => c.req.arrayBuffer()), contentType), contentType, 'schedule');
    const checked = checkScheduleDocument(document);
    if (!checked.ok) return respond(c, 400, scheduleProblems(checked.problems, c.get('requestId') ?? ''));
    const refused = await scheduleChoreoProblems(deps.lookup, principal, checked.spec);
    if (refused.length > 0) return respond(c, 400, scheduleProblems(refused, c.get('requestId') ?? ''));
    let written: Awaited<ReturnType<ScheduleStore['put']>>;
    try {
      written = await deps.schedules.put(principal.account, name, checked.spec, { now: Date.now(), paused: checked.paused });
    } catch (error) {
      if (error instanceof ScheduleLimitError) throw new ApiError('CONFLICT', `This account already keeps ${error.maxPerAccount} schedules; delete one first.`);
      throw error;
    }
    const { created, schedule } = written;
    return respond(c, created ? 201 : 200, scheduleDetails(await deps.scheduleRuns.show(schedule)));
  });
}
