import { createLogger } from '@ces/observability';
import {
  createExecutionQueue,
  createExecutionStore,
  createKeySpace,
  EXECUTION_QUEUE,
  enqueueExecution,
  type ExecutionJobData,
} from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, newExecutionFixture, waitFor } from '@ces/testing';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { JOB_FAILED_MESSAGE } from './end-failed-execution.ts';
import { createReconciler, ORPHAN_GRACE_MS } from './reconciler.ts';

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

  async function running(ageMs: number): Promise<string> {
    counter += 1;
    const execution = newExecutionFixture({ id: `${counter.toString(16).padStart(4, '0')}${'ef'.repeat(14)}`, starttime: Date.now() - ageMs });
    expect(await executions().create(execution, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'created' });
    return execution.id;
  }

  const reconcile = async () => {
    // The lock lets one reconciler run per interval; each test step wants its own pass.
    await redis.del(keys.reconcilerLock());
    return createReconciler({ redis, keys, executions: executions(), queue, workerId: 'w', logger }).reconcileOnce();
  };

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
    expect(report).toEqual({ requeued: [orphan], failed: [] });
    expect(await queue.getJobState(orphan)).toBe('waiting');
    expect(await queue.getJobState(young)).toBe('unknown');

    // Queued now, so the next pass has nothing to do for it.
    expect((await reconcile()).requeued).toEqual([]);
    // Only one reconciler at a time: a pass under someone else's lock does nothing.
    await redis.set(keys.reconcilerLock(), 'other', 'PX', 10_000);
    await queue.remove(orphan);
    expect(await createReconciler({ redis, keys, executions: executions(), queue, workerId: 'w', logger }).reconcileOnce()).toEqual({ requeued: [], failed: [] });
    for (const id of [orphan, queued, young]) await executions().finish(id, { status: 'SUCCESS' });
    await queue.obliterate({ force: true });
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

    expect(await reconcile()).toEqual({ requeued: [], failed: [id] });
    expect(await executions().get(id)).toMatchObject({ status: 'ERROR', lasterror: JOB_FAILED_MESSAGE });
  });
});
