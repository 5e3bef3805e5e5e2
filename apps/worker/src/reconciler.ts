import type { Logger } from '@ces/observability';
import {
  enqueueExecution,
  isTerminal,
  jobHolds,
  overduePlaceAfter,
  promoteJobs,
  type ExecutionEndListener,
  type ExecutionJobData,
  type ExecutionStore,
  type ReconcilerState,
} from '@ces/store';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { endFailedExecution } from './end-failed-execution.ts';
import { required } from './required.ts';

export const RECONCILE_INTERVAL_MS = 10_000;
/** An execution younger than this may still be on its way into the queue. */
export const ORPHAN_GRACE_MS = 30_000;
/**
 * Old RUNNING executions one pass looks at. Behind a backlog there may be far more than a pass
 * should look at in one go: the passes walk through them a page at a time, oldest first, and
 * start again from the oldest once they have reached the youngest.
 */
export const RECONCILE_PAGE_SIZE = 2_000;
/**
 * A run in a durable wait still waiting this long after it was due has a job left delayed: its
 * wait was made due (a child it waits for ended) by a process that died before it made the job
 * due. Its job is made due then. Long enough that a job due on time has been taken by then.
 */
export const OVERDUE_WAIT_MS = 10_000;
/** Overdue waits one pass looks at; more are left to the next pass. */
export const OVERDUE_PAGE_SIZE = 200;
/** How long a walk keeps its place when no pass takes it further (every worker gone). */
const CURSOR_TTL_MS = 10 * 60_000;

export interface ReconcileReport {
  /** Queued again: they had no job at all (or a completed one). */
  requeued: string[];
  /** Ended as ERROR: their job had failed for good. */
  failed: string[];
  /** Their durable wait overdue, their delayed job made due. */
  promoted: string[];
}

/**
 * Makes sure no execution stays RUNNING forever. It looks at the RUNNING executions older than
 * ORPHAN_GRACE_MS, a page a pass, and at their jobs:
 * - waiting, delayed, prioritized or active: someone has it. An active job whose worker died is
 *   BullMQ's to recover: its lock lapses and the stall check of any live worker puts it back. A
 *   run in a durable wait (in the waiting set) has its job among the delayed ones, due when the
 *   wait is: it is not lost, and is left alone;
 * - no job (an API that died between recording and queueing a run, a job lost with a Redis that
 *   had no AOF) or a completed one: it is queued again, and the worker that takes it resumes it
 *   from its checkpoint; a run in a durable wait taken so finds its wait's due time recorded, and
 *   is suspended again until then, never woken early;
 * - failed for good (out of attempts, or stalled too often) while the worker that saw it fail
 *   could not record it: it ends as ERROR, since running it again would fail the same way.
 * Besides, the runs whose durable wait is overdue by OVERDUE_WAIT_MS (still in the waiting set,
 * due long ago) and whose job is still delayed have their job made due: a child's end made its
 * waiting parent due, and whoever ended it died before making the parent's job due.
 * One worker at a time does this, under a lock with a TTL; every worker tries at start and then
 * every RECONCILE_INTERVAL_MS, and takes the walk on from where the last pass left it. A page's
 * jobs are looked up in one round trip, each in constant time, however long the queue.
 */
export function createReconciler(deps: {
  /** For looking up the jobs of a page in one round trip. */
  redis: Redis;
  /** The lock and the walk's place, shared by every worker's reconciler. */
  state: ReconcilerState;
  executions: ExecutionStore;
  queue: Queue<ExecutionJobData>;
  workerId: string;
  logger: Logger;
  onExecutionEnd?: ExecutionEndListener;
  /** Makes the delayed jobs of these runs due now: the parents the end of a failed child made due. */
  makeDue?: (executionIds: readonly string[]) => Promise<void>;
  /** RECONCILE_PAGE_SIZE when absent. */
  pageSize?: number;
  /** Reserves in the control slot the runs of a page accepted before the deployment had shards (AccountReservations.reserveEarly). */
  reserveEarly?: (page: readonly { id: string; starttime: number }[]) => Promise<void>;
}) {
  const { redis, state, executions, queue, logger } = deps;
  const pageSize = deps.pageSize ?? RECONCILE_PAGE_SIZE;

  /** The next page of old RUNNING executions, oldest first; moves the walk's place past it. */
  async function nextPage(now: number): Promise<{ id: string; starttime: number }[]> {
    const upToStarttime = now - ORPHAN_GRACE_MS;
    const place = await state.place();
    // One more than a page, to see whether the next page starts with this one's last start time.
    const found = await executions.runningBetween({ ...(place === undefined ? {} : { afterStarttime: place }), upToStarttime, limit: pageSize + 1 });
    if (found.length <= pageSize) {
      // The youngest old execution is in this page: the next pass starts again from the oldest.
      await state.restartWalk();
      return found;
    }
    // The next page starts after this one's last start time, so the executions of that start time
    // that did not fit are left to it; should the whole page share one, this page takes them all.
    let page = found.slice(0, pageSize);
    const last = required(page[pageSize - 1], 'the last execution of a full page').starttime;
    if (required(found[pageSize], 'the execution after a full page').starttime === last) {
      page =
        required(page[0], 'the first execution of a full page').starttime === last
          ? await executions.runningBetween({ afterStarttime: last - 1, upToStarttime: last })
          : page.filter((entry) => entry.starttime !== last);
    }
    await state.keepPlace(required(page.at(-1), 'the last execution of the page').starttime, CURSOR_TTL_MS);
    return page;
  }

  /**
   * The overdue waits whose job is still delayed, their jobs made due: a page a pass, the next
   * pass (on whichever worker) reading the page after it, and the first again after the last.
   * Under a backlog the longest due are mostly queued behind others: a scan that read them alone,
   * pass after pass, would never reach a lost promotion behind them.
   */
  async function promoteOverdueWaits(now: number): Promise<string[]> {
    const from = await state.overduePlace();
    const page = await executions.overdueWaits(now - OVERDUE_WAIT_MS, OVERDUE_PAGE_SIZE, from);
    const promoted = await promoteDelayed(page.map((wait) => wait.id));
    // Kept once the page is done with: a pass that failed reads it again.
    await state.keepOverduePlace(overduePlaceAfter(page, OVERDUE_PAGE_SIZE, from), CURSOR_TTL_MS);
    return promoted;
  }

  /** Of these overdue waits, those whose job is still delayed, their jobs made due. */
  async function promoteDelayed(overdue: string[]): Promise<string[]> {
    if (overdue.length === 0) return [];
    // Most overdue waits are merely queued behind others (their jobs due, not delayed): one
    // round trip tells which are still delayed.
    const pipeline = redis.pipeline();
    for (const id of overdue) pipeline.zscore(queue.toKey('delayed'), id);
    const replies = (await pipeline.exec()) ?? [];
    const delayed = overdue.filter((_, index) => {
      const [error, score] = replies[index] ?? [new Error('no reply')];
      if (error) throw error;
      return score !== null;
    });
    // Taken meanwhile, or made due by someone else: not among those promoted.
    return promoteJobs({ of: () => queue }, delayed);
  }

  async function reconcileOnce(now = Date.now()): Promise<ReconcileReport> {
    const report: ReconcileReport = { requeued: [], failed: [], promoted: [] };
    if (!(await state.lock(deps.workerId, RECONCILE_INTERVAL_MS))) return report;
    report.promoted = await promoteOverdueWaits(now);
    for (const id of report.promoted) logger.warn({ executionId: id }, 'waiting execution was due with its job still delayed; made its job due');
    const page = await nextPage(now);
    await deps.reserveEarly?.(page);
    const holds = await jobHolds(
      redis,
      queue,
      page.map((entry) => entry.id),
    );
    for (const [index, { id }] of page.entries()) {
      const hold = holds[index];
      if (hold === 'held') continue;
      // Read after the job: a run that ended meanwhile is seen as ended here.
      const record = await executions.get(id);
      if (!record) {
        if (await executions.forgetLostRecord(id)) {
          logger.warn({ executionId: id }, 'running execution had no record; took it out of the running indexes');
        }
        continue;
      }
      if (isTerminal(record.status)) continue;
      if (hold === 'failed') {
        if (await endFailedExecution(deps, record)) {
          report.failed.push(id);
          logger.warn({ executionId: id }, 'running execution had a failed job; ended it as ERROR');
        }
        continue;
      }
      if (hold === 'completed') await queue.remove(id);
      await enqueueExecution(queue, id);
      report.requeued.push(id);
      logger.warn({ executionId: id, jobState: hold }, 'running execution had no job; queued it again');
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
