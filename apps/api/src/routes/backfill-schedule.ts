import { type ScheduleStore, ticksAfter } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { BASE_PATH } from '../base-path.ts';
import { ApiError } from '../errors/api-error.ts';
import { readFromClient } from '../errors/client-closed-request.ts';
import { bodyText } from '../formats/body-text.ts';
import { respond } from '../formats/respond.ts';
import { requestBodyLimit } from '../middleware/request-body-limit.ts';
import { ACCOUNT_SECURITY, answer, bothFormats, errorAnswers, type Operation } from '../openapi/operation.ts';
import { checkedScheduleName, requireScheduleWriter } from '../schedules/schedule-access.ts';
import { readScheduleBody } from '../schedules/schedule-body.ts';
import { scheduleProblems } from '../schedules/schedule-problems.ts';
import { backfillOutcome } from '../schedules/schedule-representation.ts';
import type { ScheduleProblem } from '../schedules/schedule-request.ts';
import type { ScheduleRuns } from '../schedules/schedule-runs.ts';
import { backfillAnswerSchema, backfillRequestBodySchema, scheduleNameParamsSchema } from '../schedules/schedule-schemas.ts';

/** Most ticks one backfill starts: a range wider than this is split by the client. */
export const MAX_BACKFILL_TICKS = 1_000;

export const backfillScheduleOperation: Operation = {
  method: 'post',
  path: `${BASE_PATH}/schedules/{name}/backfill`,
  operationId: 'backfillSchedule',
  tags: ['Schedules'],
  summary: 'Run the ticks of a past range',
  description:
    `Extension. Starts each tick of the schedule between \`from\` and \`to\` (epoch ms, both inclusive, any past range) once, oldest first, ` +
    `under the overlap policy (under \`buffer-one\`, while a run goes on, one tick waits and starts once it has ended); a tick whose run started ` +
    `before starts nothing. At most ${MAX_BACKFILL_TICKS} ticks a request.`,
  security: ACCOUNT_SECURITY,
  request: { params: scheduleNameParamsSchema, body: { description: 'The range.', required: true, content: bothFormats(backfillRequestBodySchema) } },
  responses: {
    202: answer('The runs started, and the ticks that started none.', backfillAnswerSchema),
    ...errorAnswers(['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']),
  },
};

const EPOCH_MS = /^[0-9]{1,15}$/;

function rangeOf(document: unknown, now: number): { from: number; to: number } | ScheduleProblem[] {
  if (document === null || typeof document !== 'object' || Array.isArray(document))
    return [{ pointer: '', message: 'must be an object such as {"from": 0, "to": 0}' }];
  const problems: ScheduleProblem[] = Object.keys(document)
    .filter((field) => field !== 'from' && field !== 'to')
    .map((field) => ({ pointer: `/${field}`, message: 'is not a field of a backfill' }));
  const time = (field: 'from' | 'to') => {
    const value = (document as Record<string, unknown>)[field];
    const text = typeof value === 'number' || typeof value === 'string' ? String(value) : '';
    if (EPOCH_MS.test(text)) return Number(text);
    problems.push({ pointer: `/${field}`, message: 'must be a time in epoch milliseconds' });
    return undefined;
  };
  const from = time('from');
  const to = time('to');
  if (to !== undefined && to > now) problems.push({ pointer: '/to', message: 'must not be in the future' });
  if (from !== undefined && to !== undefined && from > to) problems.push({ pointer: '/from', message: 'must not be after "to"' });
  return problems.length > 0 || from === undefined || to === undefined ? problems : { from, to };
}

export function backfillScheduleRoute(deps: { schedules: ScheduleStore; scheduleRuns: ScheduleRuns; bodyLimitBytes: number }) {
  return new Hono<AppEnv>().post('/schedules/:name/backfill', requestBodyLimit({ maxBytes: deps.bodyLimitBytes }), async (c) => {
    const principal = c.get('principal');
    requireScheduleWriter(principal, 'backfill schedules');
    const name = checkedScheduleName(c.req.param('name'));
    const contentType = c.req.header('content-type');
    const document = readScheduleBody(bodyText(await readFromClient(c, () => c.req.arrayBuffer()), contentType), contentType, 'backfill');
    const range = rangeOf(document, Date.now());
    if (Array.isArray(range)) return respond(c, 400, scheduleProblems(range, c.get('requestId') ?? '', 'backfill'));
    let schedule = await deps.schedules.get(principal.account, name);
    if (!schedule) throw new ApiError('NOT_FOUND', 'No such schedule.');
    // One more than allowed tells a range too wide from one exactly full.
    const ticks = ticksAfter(schedule.spec.timing, range.from - 1, MAX_BACKFILL_TICKS + 1).filter((tick) => tick <= range.to);
    if (ticks.length > MAX_BACKFILL_TICKS) {
      return respond(
        c,
        400,
        scheduleProblems(
          [{ pointer: '/to', message: `gives more than ${MAX_BACKFILL_TICKS} ticks; backfill a narrower range at a time` }],
          c.get('requestId') ?? '',
          'backfill',
        ),
      );
    }
    const outcome: Parameters<typeof backfillOutcome>[0] = { ticks: ticks.length, started: [], skipped: 0, existing: 0 };
    for (const tick of ticks) {
      const started = await deps.scheduleRuns.startTick(principal, schedule, tick);
      if (started.outcome === 'skipped') outcome.skipped += 1;
      else if (started.outcome === 'waits') {
        outcome.buffered = { id: started.id, scheduledTime: tick };
        // The ticks after it are skipped while it waits, even if the run it waits for ends meanwhile.
        schedule = { ...schedule, buffered: tick };
      } else {
        if (started.outcome === 'existing') outcome.existing += 1;
        else outcome.started.push({ id: started.record.id, scheduledTime: tick });
        // The next tick's overlap policy looks at this one's run.
        schedule = { ...schedule, lastTick: tick };
      }
    }
    return respond(c, 202, backfillOutcome(outcome));
  });
}
