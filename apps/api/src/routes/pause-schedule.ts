import type { ScheduleStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { BASE_PATH } from '../base-path.ts';
import { ApiError } from '../errors/api-error.ts';
import { readFromClient } from '../errors/client-closed-request.ts';
import { bodyText } from '../formats/body-text.ts';
import { type Representation, respond } from '../formats/respond.ts';
import { requestBodyLimit } from '../middleware/request-body-limit.ts';
import { ACCOUNT_SECURITY, answer, bothFormats, errorAnswers, type Operation } from '../openapi/operation.ts';
import { checkedScheduleName, requireScheduleWriter } from '../schedules/schedule-access.ts';
import { readScheduleBody } from '../schedules/schedule-body.ts';
import { scheduleProblems } from '../schedules/schedule-problems.ts';
import { scheduleDetails } from '../schedules/schedule-representation.ts';
import type { ScheduleRuns } from '../schedules/schedule-runs.ts';
import { scheduleNameParamsSchema, scheduleNoteBodySchema, scheduleSchema } from '../schedules/schedule-schemas.ts';

const MAX_NOTE_LENGTH = 1_024;

const stateOperation = (paused: boolean): Operation => ({
  method: 'post',
  path: `${BASE_PATH}/schedules/{name}/${paused ? 'pause' : 'resume'}`,
  operationId: paused ? 'pauseSchedule' : 'resumeSchedule',
  tags: ['Schedules'],
  summary: paused ? 'Pause a schedule' : 'Resume a schedule',
  description: paused
    ? 'Extension. No tick fires until it is resumed; a run in flight goes on. The optional note says why.'
    : 'Extension. Fires again from the first tick after now: the ticks while it was paused are not caught up. The optional note says why.',
  security: ACCOUNT_SECURITY,
  request: { params: scheduleNameParamsSchema, body: { description: 'An optional note.', required: false, content: bothFormats(scheduleNoteBodySchema) } },
  responses: { 200: answer('The schedule.', scheduleSchema), ...errorAnswers(['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']) },
});

export const pauseScheduleOperation = stateOperation(true);
export const resumeScheduleOperation = stateOperation(false);

function noteOf(document: unknown, requestId: string): { problems: Representation } | { note: string } {
  const note = (document as { note?: unknown } | null)?.note;
  const extra = document !== null && typeof document === 'object' && !Array.isArray(document) ? Object.keys(document).filter((field) => field !== 'note') : [];
  const problems = [
    ...(document === null || typeof document !== 'object' || Array.isArray(document)
      ? [{ pointer: '', message: 'must be an object such as {"note": "…"}' }]
      : []),
    ...extra.map((field) => ({ pointer: `/${field}`, message: 'is not a field here' })),
    ...(note !== undefined && (typeof note !== 'string' || note.length > MAX_NOTE_LENGTH)
      ? [{ pointer: '/note', message: `must be a text of at most ${MAX_NOTE_LENGTH} characters` }]
      : []),
  ];
  return problems.length > 0 ? { problems: scheduleProblems(problems, requestId, 'request') } : { note: typeof note === 'string' ? note : '' };
}

/** POST /schedules/<name>/pause and …/resume, with an optional `{"note"}`. */
export function pauseScheduleRoutes(deps: { schedules: ScheduleStore; scheduleRuns: ScheduleRuns; bodyLimitBytes: number }) {
  const routes = new Hono<AppEnv>();
  for (const paused of [true, false]) {
    routes.post(`/schedules/:name/${paused ? 'pause' : 'resume'}`, requestBodyLimit({ maxBytes: deps.bodyLimitBytes }), async (c) => {
      const principal = c.get('principal');
      requireScheduleWriter(principal, paused ? 'pause schedules' : 'resume schedules');
      const name = checkedScheduleName(c.req.param('name'));
      const contentType = c.req.header('content-type');
      const document = readScheduleBody(bodyText(await readFromClient(c, () => c.req.arrayBuffer()), contentType), contentType, 'schedule', { optional: true });
      const read = noteOf(document, c.get('requestId') ?? '');
      if ('problems' in read) return respond(c, 400, read.problems);
      const schedule = await deps.schedules.setPaused(principal.account, name, paused, Date.now(), read.note);
      if (!schedule) throw new ApiError('NOT_FOUND', 'No such schedule.');
      return respond(c, 200, scheduleDetails(await deps.scheduleRuns.show(schedule)));
    });
  }
  return routes;
}
