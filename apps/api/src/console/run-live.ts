import { RUN_EVENT_ID, type ExecutionStore } from '@ces/store';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import type { RunEventFeed } from '../events/run-event-feed.ts';
import { runEventStream } from '../events/run-event-stream.ts';
import { eventFrame } from '../events/sse-frames.ts';
import { checkRunId, mayViewRun } from './run-access.ts';

/**
 * `GET /console/runs/<id>/live`: an open run page's Server-Sent Events, under the session cookie
 * (EventSource cannot send Basic credentials). The run's events as the events endpoint sends them,
 * from the process's one feed, starting with those added after the page was read (the page's
 * script asks for them after its last event); the stream closes after `execution.ended`. A run
 * that has already ended answers its end alone: the page already shows everything else.
 */
export function runLive(deps: { executions: ExecutionStore; feed: RunEventFeed; heartbeatMs: number }) {
  return new Hono<AppEnv>().get('/runs/:id/live', async (c) => {
    const id = c.req.param('id');
    checkRunId(id);
    const record = await deps.executions.summary(id, { withOutputs: false });
    if (!record || !mayViewRun(c.get('principal'), record)) throw new ApiError('NOT_FOUND', 'No such run.');
    const asked = c.req.header('last-event-id')?.trim() || c.req.query('after');
    const after = asked && RUN_EVENT_ID.test(asked) ? asked : undefined;
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      const answer = runEventStream(stream);
      if (record.status !== 'RUNNING') {
        await answer.write(eventFrame('0', 'execution.ended', JSON.stringify({ type: 'execution.ended', status: record.status })));
        return;
      }
      await answer.follow({
        feed: deps.feed,
        executionId: id,
        afterId: after,
        heartbeatMs: deps.heartbeatMs,
        endFrame: (event) => eventFrame(event.id, event.type, event.data),
      });
    });
  });
}
