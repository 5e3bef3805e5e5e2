import type { WorkerHeartbeat, WorkerRegistry } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { respond } from '../formats/respond.ts';

/** One live worker as operators see it; times are epoch milliseconds, as everywhere in the API. */
function workerView(worker: WorkerHeartbeat) {
  return {
    id: worker.id,
    host: worker.host,
    pid: worker.pid,
    concurrency: worker.concurrency,
    active: worker.active.length,
    activeExecutions: worker.active,
    processed: worker.processed,
    failed: worker.failed,
    version: worker.version,
    started: worker.started,
    lastSeen: worker.lastSeen,
  };
}

/**
 * `GET /ops/workers`: every worker whose heartbeat is live. A worker that dies stops beating and
 * drops out of the list by itself within the heartbeat TTL.
 */
export function opsWorkersRoute(deps: { workers: WorkerRegistry }) {
  return new Hono<AppEnv>().get('/workers', async (c) => {
    const workers = (await deps.workers.list()).map(workerView);
    return respond(c, 200, {
      json: { workers },
      xml: {
        root: 'workers',
        tree: { worker: workers.map(({ activeExecutions, ...fields }) => ({ ...fields, activeExecutions: { id: activeExecutions } })) },
      },
    });
  });
}
