import { type ExecutionQueues, type ExecutionStore, queuedJobCounts } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { respond } from '../formats/respond.ts';

/**
 * `GET /ops/executions`: how many executions are RUNNING in all, and where they are: `queued`
 * (waiting for a worker), `executing` (held by a worker), `waiting` (suspended in a durable wait,
 * holding no worker until due; `waitingForCallBack` of them wait for a call back, the others for a time or a child execution) and `delayed` (the queue's delayed jobs: the waiting ones, and those
 * deferred for their account's share or a retry).
 */
export function opsExecutionsRoute(deps: { queues: ExecutionQueues; executions: ExecutionStore }) {
  return new Hono<AppEnv>().get('/executions', async (c) => {
    const [running, waiting, jobs] = await Promise.all([deps.executions.countAllRunning(), deps.executions.countWaiting(), queuedJobCounts(deps.queues)]);
    const counts = {
      running,
      queued: jobs.waiting,
      executing: jobs.active,
      waiting: waiting.total,
      waitingForCallBack: waiting.forCallBack,
      delayed: jobs.delayed,
    };
    return respond(c, 200, { json: { executions: counts }, xml: { root: 'executions', tree: counts } });
  });
}
