import { isTerminal, RUN_EVENT_ID, type ExecutionStore, type ExecutionSummary, type RunEventLog, type StoredRunEvent } from '@ces/store';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { AppEnv } from '../app-env.ts';
import { BASE_PATH } from '../base-path.ts';
import { ApiError } from '../errors/api-error.ts';
import { runEventStream } from '../events/run-event-stream.ts';
import { eventFrame } from '../events/sse-frames.ts';
import type { RunEventFeed } from '../events/run-event-feed.ts';
import { executionStatus } from '../formats/representations.ts';
import { executionIdParamsSchema } from '../formats/request-schemas.ts';
import { ACCOUNT_SECURITY, errorAnswers, type Operation } from '../openapi/operation.ts';
import type { SealedErrorMask } from '../runs/sealed-error-mask.ts';
import { EXECUTION_ID, isExecutionVisible } from '../runs/visibility.ts';

/** Where the run events of an execution are served, as routed paths match it. */
export const RUN_EVENTS_PATH = /^\/service-api\/1\.0\/choreo-executions\/[^/]+\/events$/;

export const runEventsOperation: Operation = {
  method: 'get',
  path: `${BASE_PATH}/choreo-executions/{id}/events`,
  operationId: 'getExecutionEvents',
  tags: ['Executions'],
  summary: 'Run events',
  description:
    'Extension. The run as Server-Sent Events (`text/event-stream`), one per step and iteration start and end, wait begun and child started, ' +
    "then `execution.ended` with the status resource's `execution`, after which the server closes the stream. Each event has an `id`: " +
    'a client that reconnects with it as `Last-Event-ID` gets exactly the events after it. A comment `: heartbeat` comes every ' +
    '`EVENTS_HEARTBEAT_MS` (15 s by default). For a run that has ended, what is kept is replayed, then `execution.ended`. ' +
    'Event types: `step.started`, `step.ended`, `iteration.started`, `iteration.ended` (data: `type`, `time`, `address`, `step` ' +
    '(not for iterations), `iteration` (inside a loop), `attempt`, `host`; the ends add `outcome` `succeeded`|`failed`|`stopped`, ' +
    '`durationMs` and `error` when failed), `wait.started` (`address`, `waitFor` `time`|`callback`|`child`, `until` when bounded, ' +
    '`child`: the execution id waited for), ' +
    '`child.started` (`address`, `child`: its execution id), `execution.ended` (`execution`). Times are epoch milliseconds as text. ' +
    'Errors are JSON, as the status resource answers them.',
  security: ACCOUNT_SECURITY,
  request: {
    params: executionIdParamsSchema,
    headers: z.object({
      'last-event-id': z.string().optional().meta({ description: 'The `id` of the last event received: the stream resumes after it.' }),
    }),
  },
  responses: {
    200: {
      description: 'The run events, until the run has ended.',
      content: {
        'text/event-stream': {
          schema: z.string().meta({
            description: 'Frames of `id: <id>`, `event: <type>` and `data: <one line of JSON>`, and `: heartbeat` comments.',
          }),
        },
      },
    },
    ...errorAnswers(),
  },
};

/**
 * GET …/choreo-executions/<id>/events: the run's events as they are stored, under the access
 * rules of the status resource (another account's run, or one the credentials may not see, is
 * 404). Live events come through the process's one feed (run-event-feed.ts); a run that has
 * ended is read once and the stream closes.
 */
export function runEventsRoute(deps: {
  executions: ExecutionStore;
  runEvents: RunEventLog;
  feed: RunEventFeed;
  heartbeatMs: number;
  /** Masks the sealed inputs of a run in its error, as the status resource does. */
  maskSealedInputs?: SealedErrorMask;
}) {
  /** The status resource's `execution` object, as it is now. */
  const executionNow = async (id: string): Promise<Record<string, unknown> | undefined> => {
    const record = await deps.executions.summary(id, { withOutputs: false });
    if (record === undefined) return undefined;
    const shown = deps.maskSealedInputs ? await deps.maskSealedInputs(record) : record;
    return (executionStatus(shown, false).json as { execution: Record<string, unknown> }).execution;
  };
  const endFrame = async (id: string, event: StoredRunEvent | undefined, record: ExecutionSummary) => {
    const execution = (await executionNow(id)) ?? (executionStatus(record, false).json as { execution: Record<string, unknown> }).execution;
    const stored = event === undefined ? { type: 'execution.ended', time: String(record.endtime ?? '') } : (JSON.parse(event.data) as Record<string, unknown>);
    // A run ended before its events were kept has none: its end comes first, as 0.
    return eventFrame(event?.id ?? '0', 'execution.ended', JSON.stringify({ ...stored, execution }));
  };

  return new Hono<AppEnv>().get('/choreo-executions/:id/events', async (c) => {
    const id = c.req.param('id');
    if (!EXECUTION_ID.test(id)) throw new ApiError('NOT_FOUND', 'No such execution.');
    const lastEventId = c.req.header('last-event-id')?.trim() || undefined;
    if (lastEventId !== undefined && !RUN_EVENT_ID.test(lastEventId))
      throw new ApiError('BAD_REQUEST', 'Last-Event-ID is not the id of an event of this stream.');
    const record = await deps.executions.summary(id, { withOutputs: false });
    if (!record || !isExecutionVisible(c.get('principal'), record)) throw new ApiError('NOT_FOUND', 'No such execution.');
    // Proxies that buffer answers (nginx) would hold the events back.
    c.header('X-Accel-Buffering', 'no');

    return streamSSE(c, async (stream) => {
      const answer = runEventStream(stream);
      if (isTerminal(record.status)) {
        // Ended: what is kept, then its end, and the stream closes.
        let ended: StoredRunEvent | undefined;
        for (const event of await deps.runEvents.read(id, lastEventId)) {
          if (event.type === 'execution.ended') ended = event;
          else void answer.write(eventFrame(event.id, event.type, event.data));
        }
        // A client that resumes after the end has had everything.
        if (ended !== undefined || lastEventId === undefined) await answer.write(endFrame(id, ended, record));
        await answer.written();
        return;
      }

      await answer.follow({
        feed: deps.feed,
        executionId: id,
        afterId: lastEventId,
        heartbeatMs: deps.heartbeatMs,
        // Written by the script that ended the record: the record reads ended now.
        endFrame: (event) => endFrame(id, event, record),
      });
    });
  });
}
