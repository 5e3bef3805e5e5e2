import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { HonoAdapter } from '@bull-board/hono';
import { serveStatic } from '@hono/node-server/serve-static';
import type { ExecutionJobData } from '@ces/store';
import type { Queue } from 'bullmq';
import type { Hono } from 'hono';

/**
 * Bull Board's answer to an exception in one of its handlers: its own error shape (a translation
 * key the dashboard shows), without the exception's message. Its deliberate refusals (an unknown
 * queue or job) are answers, not exceptions, and keep their own.
 */
function dashboardError() {
  return { status: 500, body: { error: { key: 'ERRORS.INTERNAL_SERVER_ERROR' } } } as const;
}

/**
 * The queue dashboard (Bull Board) at `basePath`. It is read-only: an execution's state lives in
 * its record, so a job retried, promoted or removed from the dashboard would disagree with it —
 * terminating goes through the API or the admin command line, which keep the two in step.
 */
export function opsQueuesRoute(deps: { queue: Queue<ExecutionJobData>; basePath: string }): Hono {
  const serverAdapter = new HonoAdapter(serveStatic).setBasePath(deps.basePath);
  createBullBoard({
    queues: [new BullMQAdapter(deps.queue, { readOnlyMode: true, description: 'Choreo executions waiting for and held by workers' })],
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Choreo executions' } },
  });
  // Bull Board's default answer carries the exception's message; a 5xx must not show internals.
  serverAdapter.setErrorHandler(dashboardError);
  return serverAdapter.registerPlugin();
}
