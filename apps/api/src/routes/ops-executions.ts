import type { ExecutionJobData, ExecutionStore } from '@ces/store';
import type { Queue } from 'bullmq';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { respond } from '../formats/respond.ts';

/**
 * `GET /ops/executions`: how many executions are RUNNING in all, and where they are: `queued`
 * (waiting for a worker), `executing` (held by a worker), `waiting` (suspended in a durable wait,
 * holding no worker until due; `waitingForCallBack` of them wait for a call back, the others for a time) and `delayed` (the queue's delayed jobs: the waiting ones, and those
 * deferred for their account's share or a retry).
 */
export function opsExecutionsRoute(deps: { queue: Queue<ExecutionJobData>; executions: ExecutionStore }) {
  return new Hono<AppEnv>().get('/executions', async (c) => {
    const [running, waiting, jobs] = await Promise.all([
      deps.executions.countAllRunning(),
      deps.executions.countWaiting(),
      deps.queue.getJobCounts('waiting', 'active', 'delayed'),
    ]);
    const counts = {
      running,
      queued: jobs.waiting ?? 0,
      executing: jobs.active ?? 0,
      waiting: waiting.total,
      waitingForCallBack: waiting.forCallBack,
      delayed: jobs.delayed ?? 0,
    };
    return respond(c, 200, { json: { executions: counts }, xml: { root: 'executions', tree: counts } });
  });
}
