import type { ExecutionStore } from '@ces/store';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { checkRunId, mayViewRun } from './run-access.ts';
import type { RunWatch } from './run-watch.ts';

/** A comment now and then keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

/**
 * `GET /console/runs/<id>/live`: Server-Sent Events for an open run page, under the session
 * cookie (EventSource cannot send Basic credentials): `changed` when the run's record changes,
 * `execution.ended` once when it ends, after which the stream closes.
 */
export function runLive(deps: { executions: ExecutionStore; watch: RunWatch }) {
  return new Hono<AppEnv>().get('/runs/:id/live', async (c) => {
    const id = c.req.param('id');
    checkRunId(id);
    const record = await deps.executions.summary(id, { withOutputs: false });
    if (!record || !mayViewRun(c.get('principal'), record)) throw new ApiError('NOT_FOUND', 'No such run.');
    return streamSSE(c, async (stream) => {
      let serial = 0;
      const send = (event: string, status: string) => {
        serial += 1;
        return stream.writeSSE({ id: String(serial), event, data: JSON.stringify({ type: event, status }) });
      };
      if (record.status !== 'RUNNING') {
        await send('execution.ended', record.status);
        return;
      }
      await new Promise<void>((resolve) => {
        const stop = deps.watch.watch(id, (change) => {
          void send(change.type === 'ended' ? 'execution.ended' : 'changed', change.record.status).then(() => {
            if (change.type === 'ended') finish();
          });
        });
        const heartbeat = setInterval(() => void stream.write(': heartbeat\n\n'), HEARTBEAT_MS);
        function finish() {
          stop();
          clearInterval(heartbeat);
          resolve();
        }
        stream.onAbort(finish);
      });
    });
  });
}
