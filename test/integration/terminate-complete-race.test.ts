import { createExecutionStore, createKeySpace, type ExecutionStore } from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, newExecutionFixture, waitFor, must } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// A worker finishing a run and an API terminating it, at the same moment, on separate
// connections: whichever Redis sees first, the execution ends exactly once, and stays so.
describe('terminate versus complete', () => {
  const prefix = isolatedPrefix('race');
  const keys = createKeySpace(prefix);
  let workerSide: Redis;
  let apiSide: Redis;
  let subscriber: Redis;
  let worker: ExecutionStore;
  let api: ExecutionStore;
  const published: string[] = [];

  beforeAll(async () => {
    workerSide = new Redis(inject('redisUrl'));
    apiSide = new Redis(inject('redisUrl'));
    subscriber = new Redis(inject('redisUrl'));
    worker = createExecutionStore({ redis: workerSide, keys, retentionSeconds: 300 });
    api = createExecutionStore({ redis: apiSide, keys, retentionSeconds: 300 });
    // "<id>\n<ended record>": only the id matters here.
    subscriber.on('message', (_channel: string, message: string) => published.push(must(message.split('\n')[0])));
    await subscriber.subscribe(keys.executionEndedChannel());
  });

  afterAll(async () => {
    await deleteKeysWithPrefix(workerSide, prefix);
    for (const connection of [workerSide, apiSide, subscriber]) connection.disconnect();
  });

  const newExecution = (i: number) => newExecutionFixture({ id: `${i.toString(16).padStart(4, '0')}${'ab'.repeat(14)}` });

  it('ends each of 100 executions exactly once, with the status the DELETE answer promised', { timeout: 60_000 }, async () => {
    const outcomes = { terminated: 0, succeeded: 0 };
    const ids: string[] = [];
    for (let i = 0; i < 100; i += 1) {
      const execution = newExecution(i);
      ids.push(execution.id);
      // As a synchronous run is: someone waits for its end, so the end is published.
      expect(await api.accept(execution, { maxRunningPerAccount: 0, notifyEnd: true })).toEqual({ outcome: 'accepted' });
      const lease = `worker-a:${i}`;
      await worker.take(execution.id, { host: '10.0.0.1', workerId: 'worker-a', lease });

      // Alternate which side sends first; the two connections then race to Redis.
      const finish = () => worker.end(execution.id, { status: 'SUCCESS', outputs: { Done: 'yes' }, lease, account: 'acme', nextStep: 1 });
      const terminate = () => api.requestTermination(execution.id);
      const [finished, before] =
        i % 2 === 0 ? await Promise.all([finish(), terminate()]) : await Promise.all([terminate(), finish()]).then(([t, f]) => [f, t] as const);

      // Termination accepted (it was RUNNING, answered 204) means TERMINATED_MANUALLY, never SUCCESS.
      const expected = before?.status === 'RUNNING' ? 'TERMINATED_MANUALLY' : 'SUCCESS';
      if (before?.status === 'RUNNING') outcomes.terminated += 1;
      else {
        expect(before).toEqual({ status: 'SUCCESS', ended: false });
        outcomes.succeeded += 1;
      }
      expect(finished).toEqual({ outcome: 'ended', status: expected });

      // Later attempts change nothing: terminal statuses are final.
      expect(await api.end(execution.id, { status: 'TERMINATED_MANUALLY' })).toEqual({ outcome: 'not-running', status: expected });
      expect(await worker.end(execution.id, { status: 'ERROR', error: 'late', lease })).toEqual({ outcome: 'not-running', status: expected });
      expect(await worker.checkpoint(execution.id, { nextStep: 1, entries: [], outputs: {} }, lease)).toBe('not-running');
      expect(await api.requestTermination(execution.id)).toEqual({ status: expected, ended: false });
      const record = await api.get(execution.id);
      // A run that succeeded keeps no step reached: it reached them all.
      expect(record).toMatchObject({ status: expected, output: { Done: 'yes' }, nextStep: expected === 'SUCCESS' ? 0 : 1, lease: '' });
      expect(record?.lasterror).toBeUndefined();
    }
    // Both orders happened, so both branches above were checked.
    expect(outcomes.terminated).toBeGreaterThan(0);
    expect(outcomes.succeeded).toBeGreaterThan(0);

    // One end, one notification: never a second end for any execution.
    await waitFor(() => published.length >= 100, { what: 'the end notifications' });
    expect([...published].sort()).toEqual([...ids].sort());
    expect(await apiSide.zcard(keys.running())).toBe(0);
    expect(await apiSide.scard(keys.accountRunning('acme'))).toBe(0);
  });
});
