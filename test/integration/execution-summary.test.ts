import { createExecutionStore, createKeySpace, type ExecutionStore } from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, newExecutionFixture } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// A status poll reads only what the answer shows: never the inputs or the step results.
describe('execution summary', () => {
  const prefix = isolatedPrefix('summary');
  const keys = createKeySpace(prefix);
  let redis: Redis;
  let store: ExecutionStore;

  beforeAll(() => {
    redis = new Redis(inject('redisUrl'));
    store = createExecutionStore({ redis, keys, retentionSeconds: 300 });
  });

  afterAll(async () => {
    await deleteKeysWithPrefix(redis, prefix);
    redis.disconnect();
  });

  it('reads the status fields, and the outputs only when asked for', async () => {
    const execution = newExecutionFixture({ inputs: { Secretish: 'x'.repeat(1000) } });
    await store.create(execution, { maxRunningPerAccount: 0 });
    await store.claim(execution.id, '10.0.0.4', 'w', 'lease');
    await store.finish(execution.id, { status: 'ERROR', error: 'boom', outputs: { Out: '1' }, lease: 'lease', now: execution.starttime + 5 });

    const plain = await store.summary(execution.id, { withOutputs: false });
    expect(plain).toMatchObject({
      id: execution.id,
      account: execution.account,
      choreo: execution.choreo,
      status: 'ERROR',
      starttime: execution.starttime,
      endtime: execution.starttime + 5,
      host: '10.0.0.4',
      lasterror: 'boom',
      errortime: execution.starttime + 5,
      output: {},
    });
    expect(plain).toMatchObject({ inputs: {} });
    expect((await store.summary(execution.id, { withOutputs: true }))!.output).toEqual({ Out: '1' });
  });

  it('is undefined for an execution that does not exist', async () => {
    expect(await store.summary('0'.repeat(32), { withOutputs: true })).toBeUndefined();
  });
});
