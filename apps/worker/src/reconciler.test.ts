import { createLogger } from '@ces/observability';
import {
  createExecutionQueue,
  createExecutionStore,
  createKeySpace,
  createReconcilerState,
  EXECUTION_QUEUE,
  enqueueExecution,
  type ExecutionJobData,
} from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, newExecutionFixture, waitFor, must } from '@ces/testing';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { JOB_FAILED_MESSAGE } from './end-failed-execution.ts';
import { createReconciler, ORPHAN_GRACE_MS, OVERDUE_PAGE_SIZE, OVERDUE_WAIT_MS } from './reconciler.ts';

// Against a real Redis and real BullMQ queue: what the reconciler does with each kind of job.
describe('reconciler', () => {
  const prefix = isolatedPrefix('reconcile');
  const keys = createKeySpace(prefix);
  let redis: Redis;
  let queueConnection: Redis;
  const executions = () => createExecutionStore({ redis, keys, retentionSeconds: 300 });
  let queue: ReturnType<typeof createExecutionQueue>;
  const logger = createLogger({ name: 'reconciler-test', level: 'silent' });
  let counter = 0;

  beforeAll(() => {
    redis = new Redis(inject('redisUrl'));
    queueConnection = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    queue = createExecutionQueue({ connection: queueConnection, keys });
  });

  afterAll(async () => {
    await queue.close();
    await deleteKeysWithPrefix(redis, prefix);
    redis.disconnect();
    queueConnection.disconnect();
  });

  async function running(ageMs: number, at = Date.now()): Promise<string> {
    counter += 1;
    const execution = newExecutionFixture({ id: `${counter.toString(16).padStart(4, '0')}${'ef'.repeat(14)}`, starttime: at - ageMs });
    expect(await executions().accept(execution, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    return execution.id;
  }

  const reconcile = async (options: { pageSize?: number; workerId?: string } = {}) => {
    // The lock lets one reconciler run per interval; each test step wants its own pass.
    await redis.del(keys.reconcilerLock());
    return createReconciler({
      redis,
      state: createReconcilerState({ redis, keys }),
      executions: executions(),
      queue,
      workerId: options.workerId ?? 'w',
      logger,
      ...options,
    }).reconcileOnce();
  };

  /** Ends what a test left RUNNING and empties the queue, so that the next test's passes see only its own. */
  async function endAll(ids: string[]) {
    for (const id of ids) await executions().end(id, { status: 'SUCCESS' });
    await queue.obliterate({ force: true });
    await redis.del(keys.reconcilerCursor(), keys.reconcilerOverduePlace());
  }

  it('takes out of the running indexes an execution whose record is gone, freeing its quota', async () => {
    await redis.sadd(keys.accounts(), 'acme');
    const lost = await running(ORPHAN_GRACE_MS + 5_000);
    await redis.del(keys.execution(lost));
    await reconcile();
    expect(await redis.zscore(keys.running(), lost)).toBeNull();
    expect(await redis.sismember(keys.accountRunning('acme'), lost)).toBe(0);
  });

  it('queues an old RUNNING execution without a job, leaves young and queued ones alone', async () => {
    const orphan = await running(ORPHAN_GRACE_MS + 5_000);
    const queued = await running(ORPHAN_GRACE_MS + 5_000);
    await enqueueExecution(queue, queued);
    const young = await running(0);

    const report = await reconcile();
    expect(report).toEqual({ requeued: [orphan], failed: [], promoted: [] });
    expect(await queue.getJobState(orphan)).toBe('waiting');
    expect(await queue.getJobState(young)).toBe('unknown');

    // Queued now, so the next pass has nothing to do for it.
    expect((await reconcile()).requeued).toEqual([]);
    // Only one reconciler at a time: a pass under someone else's lock does nothing.
    await redis.set(keys.reconcilerLock(), 'other', 'PX', 10_000);
    await queue.remove(orphan);
    expect(
      await createReconciler({ redis, state: createReconcilerState({ redis, keys }), executions: executions(), queue, workerId: 'w', logger }).reconcileOnce(),
    ).toEqual({
      requeued: [],
      failed: [],
      promoted: [],
    });
    await endAll([orphan, queued, young]);
  });

  it('walks a backlog of old queued runs a page a pass, whichever worker passes, and reaches the orphan behind it', async () => {
    const now = Date.now();
    const queued: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      const id = await running(ORPHAN_GRACE_MS + 60_000 - i, now);
      await enqueueExecution(queue, id);
      queued.push(id);
    }
    const orphan = await running(ORPHAN_GRACE_MS + 60_000 - 7, now);

    // Three a pass: the first two passes find every job held.
    expect(await reconcile({ pageSize: 3, workerId: 'w1' })).toEqual({ requeued: [], failed: [], promoted: [] });
    expect(await reconcile({ pageSize: 3, workerId: 'w2' })).toEqual({ requeued: [], failed: [], promoted: [] });
    expect(await reconcile({ pageSize: 3, workerId: 'w1' })).toEqual({ requeued: [orphan], failed: [], promoted: [] });
    // That page was the last: the walk starts again from the oldest.
    await queue.remove(must(queued[0]));
    expect(await reconcile({ pageSize: 3 })).toEqual({ requeued: [queued[0]], failed: [], promoted: [] });
    await endAll([...queued, orphan]);
  });

  it('skips no run that shares its start time with the end of a page', async () => {
    const at = Date.now() - ORPHAN_GRACE_MS - 60_000;
    // Start times: one alone, then four together, then three together: pages of three meet both groups.
    const orphans = [await running(0, at), ...(await Promise.all([1, 1, 1, 1, 2, 2, 2].map((offset) => running(0, at + offset))))];
    const requeued: string[] = [];
    for (let pass = 0; pass < 5; pass += 1) requeued.push(...(await reconcile({ pageSize: 3 })).requeued);
    expect(requeued.sort()).toEqual([...orphans].sort());
    await endAll(orphans);
  });

  it('ends as ERROR a RUNNING execution whose job failed for good', async () => {
    const id = await running(ORPHAN_GRACE_MS + 5_000);
    await queue.add('run', { executionId: id }, { jobId: id, attempts: 1 });
    const connection = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    const failing = new Worker<ExecutionJobData>(
      EXECUTION_QUEUE,
      async () => {
        throw new Error('worker crashed');
      },
      { connection, prefix: keys.prefix },
    );
    try {
      await waitFor(async () => (await queue.getJobState(id)) === 'failed', { what: 'the job to fail' });
    } finally {
      await failing.close();
      connection.disconnect();
    }

    expect(await reconcile()).toEqual({ requeued: [], failed: [id], promoted: [] });
    expect(await executions().get(id)).toMatchObject({ status: 'ERROR', lasterror: JOB_FAILED_MESSAGE });
  });

  it('makes due the delayed job of a run whose durable wait is overdue, and leaves a job already due alone', async () => {
    // Suspended runs (in the waiting set) whose wait a child's end made due long ago: one whose
    // job stayed delayed (whoever ended the child died before making it due), one whose job is due
    // already and merely queued behind others.
    const stuck = await running(0);
    const queued = await running(0);
    const dueLongAgo = Date.now() - OVERDUE_WAIT_MS - 1_000;
    await redis.zadd(keys.waiting(), dueLongAgo, stuck, dueLongAgo, queued);
    await queue.add('run', { executionId: stuck }, { jobId: stuck, delay: 3_600_000 });
    await enqueueExecution(queue, queued);
    // One due just now is the promoter's own to make due: not yet overdue.
    const justDue = await running(0);
    await redis.zadd(keys.waiting(), Date.now(), justDue);
    await queue.add('run', { executionId: justDue }, { jobId: justDue, delay: 3_600_000 });

    expect(await reconcile()).toMatchObject({ promoted: [stuck] });
    expect(await queue.getJobState(stuck)).toBe('waiting');
    expect(await queue.getJobState(queued)).toBe('waiting');
    expect(await queue.getJobState(justDue)).toBe('delayed');
    expect((await reconcile()).promoted).toEqual([]);
    await endAll([stuck, queued, justDue]);
  });

  it('scans the overdue waits a page a pass, and reaches a lost promotion behind a backlog of waits merely queued', async () => {
    // A page of runs overdue longest, their jobs due already (here: none to promote), and behind
    // them one whose job stayed delayed, all due at the same time (a fan-out's children ending
    // together): the page's end is told by how many of that time it has passed, not by the time.
    const longAgo = Date.now() - OVERDUE_WAIT_MS - 60_000;
    // Before the stuck run's id among those due at the same time ('!' sorts before any hex digit).
    const backlog = Array.from({ length: OVERDUE_PAGE_SIZE }, (_, index) => `!queued-${String(index).padStart(3, '0')}`);
    await redis.zadd(keys.waiting(), ...backlog.flatMap((id) => [longAgo, id]));
    const stuck = await running(0);
    await redis.zadd(keys.waiting(), longAgo, stuck);
    await queue.add('run', { executionId: stuck }, { jobId: stuck, delay: 3_600_000 });

    expect((await reconcile()).promoted).toEqual([]);
    expect((await reconcile({ workerId: 'another' })).promoted).toEqual([stuck]);
    expect(await queue.getJobState(stuck)).toBe('waiting');
    // Past its last page, the next scan starts again from the longest due.
    expect(await redis.get(keys.reconcilerOverduePlace())).toBeNull();
    await redis.zrem(keys.waiting(), ...backlog);
    await endAll([stuck]);
  });
});
