import { createExecutionQueue, EXECUTION_QUEUE, jobHolds, type ExecutionJobData, type JobHold } from '@ces/store';
import { waitFor } from '@ces/testing';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// jobHolds answers by constant-time look-ups what BullMQ's getJobState answers by scanning the
// wait list: for a job in each state, the two must agree.
describe('jobHolds', () => {
  const { keys, redis } = storeOnRedis('job-holds');
  const queue = createExecutionQueue({ connection: new Redis(inject('redisUrl'), { maxRetriesPerRequest: null }), keys });
  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });
  const AS_BULLMQ_SAYS: Record<string, JobHold> = {
    waiting: 'held',
    prioritized: 'held',
    delayed: 'held',
    active: 'held',
    failed: 'failed',
    completed: 'completed',
    unknown: 'none',
  };
  let counter = 0;
  const nextId = () => `${(++counter).toString(16).padStart(4, '0')}${'ab'.repeat(14)}`;

  it('tells a job waiting, prioritized, delayed, active, failed or completed from none, as getJobState does', async () => {
    const waiting = nextId();
    const prioritized = nextId();
    const delayed = nextId();
    const active = nextId();
    const failed = nextId();
    const completed = nextId();
    const none = nextId();
    // A worker that takes one job at a time fails the first, completes the second and holds the
    // third active until told to let go; the rest are queued while it holds that one.
    await queue.add('run', { executionId: failed }, { jobId: failed, attempts: 1 });
    await queue.add('run', { executionId: completed }, { jobId: completed, removeOnComplete: false });
    await queue.add('run', { executionId: active }, { jobId: active });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const connection = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    const worker = new Worker<ExecutionJobData>(
      EXECUTION_QUEUE,
      async (job) => {
        if (job.data.executionId === failed) throw new Error('failed for good');
        if (job.data.executionId === active) await released;
      },
      { connection, prefix: keys.prefix, concurrency: 1 },
    );
    try {
      await waitFor(async () => (await queue.getJobState(active)) === 'active', { what: 'the worker to hold the third job' });
      await queue.add('run', { executionId: waiting }, { jobId: waiting });
      await queue.add('run', { executionId: prioritized }, { jobId: prioritized, priority: 3 });
      await queue.add('run', { executionId: delayed }, { jobId: delayed, delay: 60_000 });
      const ids = [waiting, prioritized, delayed, active, failed, completed, none];
      const states = await Promise.all(ids.map((id) => queue.getJobState(id)));
      expect(states).toEqual(['waiting', 'prioritized', 'delayed', 'active', 'failed', 'completed', 'unknown']);
      expect(await jobHolds(redis, queue, ids)).toEqual(states.map((state) => AS_BULLMQ_SAYS[state]));
    } finally {
      release();
      await worker.close();
      connection.disconnect();
    }
  });

  it('answers nothing for no ids, without a round trip', async () => {
    expect(await jobHolds(redis, queue, [])).toEqual([]);
  });
});
