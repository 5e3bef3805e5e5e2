import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { HonoAdapter } from '@bull-board/hono';
import { serveStatic } from '@hono/node-server/serve-static';
import type { ExecutionJobData } from '@ces/store';
import type { Queue } from 'bullmq';
import type { Hono } from 'hono';

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
  return serverAdapter.registerPlugin();
}
