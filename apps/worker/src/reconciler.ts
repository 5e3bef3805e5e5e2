import type { Logger } from '@ces/observability';
import { enqueueExecution, type ExecutionJobData, type ExecutionStore, type KeySpace } from '@ces/store';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

export const RECONCILE_INTERVAL_MS = 10_000;
/** An execution younger than this may still be on its way into the queue. */
export const ORPHAN_GRACE_MS = 30_000;

/**
 * Finds executions that are RUNNING but have no job waiting, delayed or active — an API that died
 * between recording and queueing a run, a job lost with a Redis that had no AOF — and queues them
 * again; the worker that takes one resumes it from its checkpoint. One worker at a time does this,
 * under a lock with a TTL.
 */
export function createReconciler(deps: {
  redis: Redis;
  keys: KeySpace;
  executions: ExecutionStore;
  queue: Queue<ExecutionJobData>;
  workerId: string;
  logger: Logger;
}) {
  const { redis, keys, executions, queue, logger } = deps;

  async function reconcileOnce(now = Date.now()): Promise<string[]> {
    const locked = await redis.set(keys.reconcilerLock(), deps.workerId, 'PX', RECONCILE_INTERVAL_MS, 'NX');
    if (locked !== 'OK') return [];
    const requeued: string[] = [];
    for (const { id, starttime } of await executions.runningIds(10_000)) {
      if (now - starttime < ORPHAN_GRACE_MS) break;
      const state = await queue.getJobState(id);
      if (state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children') continue;
      const record = await executions.get(id);
      if (!record || record.status !== 'RUNNING') continue;
      if (state !== 'unknown') await queue.remove(id);
      await enqueueExecution(queue, id);
      requeued.push(id);
      logger.warn({ executionId: id, jobState: state }, 'running execution had no job; queued it again');
    }
    return requeued;
  }

  let timer: NodeJS.Timeout | undefined;
  return {
    reconcileOnce,
    start() {
      timer = setInterval(() => {
        reconcileOnce().catch((error: unknown) => logger.warn({ err: error }, 'reconciliation failed'));
      }, RECONCILE_INTERVAL_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
