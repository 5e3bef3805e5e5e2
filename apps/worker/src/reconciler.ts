import type { Logger } from '@ces/observability';
import { enqueueExecution, type ExecutionJobData, type ExecutionStore, type KeySpace } from '@ces/store';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { endFailedExecution, type ExecutionEndListener } from './end-failed-execution.ts';

export const RECONCILE_INTERVAL_MS = 10_000;
/** An execution younger than this may still be on its way into the queue. */
export const ORPHAN_GRACE_MS = 30_000;

export interface ReconcileReport {
  /** Queued again: they had no job at all (or a completed one). */
  requeued: string[];
  /** Ended as ERROR: their job had failed for good. */
  failed: string[];
}

/**
 * Makes sure no execution stays RUNNING forever. It looks at every RUNNING execution older than
 * ORPHAN_GRACE_MS and at its job:
 * - waiting, delayed, prioritized or active: someone has it. An active job whose worker died is
 *   BullMQ's to recover: its lock lapses and the stall check of any live worker puts it back;
 * - no job (an API that died between recording and queueing a run, a job lost with a Redis that
 *   had no AOF) or a completed one: it is queued again, and the worker that takes it resumes it
 *   from its checkpoint;
 * - failed for good (out of attempts, or stalled too often) while the worker that saw it fail
 *   could not record it: it ends as ERROR, since running it again would fail the same way.
 * One worker at a time does this, under a lock with a TTL; every worker tries at start and then
 * every RECONCILE_INTERVAL_MS.
 */
export function createReconciler(deps: {
  redis: Redis;
  keys: KeySpace;
  executions: ExecutionStore;
  queue: Queue<ExecutionJobData>;
  workerId: string;
  logger: Logger;
  onExecutionEnd?: ExecutionEndListener;
}) {
  const { redis, keys, executions, queue, logger } = deps;

  async function reconcileOnce(now = Date.now()): Promise<ReconcileReport> {
    const report: ReconcileReport = { requeued: [], failed: [] };
    const locked = await redis.set(keys.reconcilerLock(), deps.workerId, 'PX', RECONCILE_INTERVAL_MS, 'NX');
    if (locked !== 'OK') return report;
    for (const { id, starttime } of await executions.runningIds(10_000)) {
      // Oldest first: the rest are younger still.
      if (now - starttime < ORPHAN_GRACE_MS) break;
      const state = await queue.getJobState(id);
      if (state !== 'unknown' && state !== 'completed' && state !== 'failed') continue;
      // Read after the job: a run that ended meanwhile is seen as ended here.
      const record = await executions.get(id);
      if (!record) {
        if (await executions.forgetLostRecord(id)) {
          logger.warn({ executionId: id }, 'running execution had no record; took it out of the running indexes');
        }
        continue;
      }
      if (record.status !== 'RUNNING') continue;
      if (state === 'failed') {
        if (await endFailedExecution(deps, record)) {
          report.failed.push(id);
          logger.warn({ executionId: id }, 'running execution had a failed job; ended it as ERROR');
        }
        continue;
      }
      if (state === 'completed') await queue.remove(id);
      await enqueueExecution(queue, id);
      report.requeued.push(id);
      logger.warn({ executionId: id, jobState: state }, 'running execution had no job; queued it again');
    }
    return report;
  }

  const reconcile = () => {
    reconcileOnce().catch((error: unknown) => logger.warn({ err: error }, 'reconciliation failed'));
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    reconcileOnce,
    start() {
      reconcile();
      timer = setInterval(reconcile, RECONCILE_INTERVAL_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
