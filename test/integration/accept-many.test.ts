import { acceptThenQueue, createExecutionQueue, type ExecutionStore, singleExecutionQueue } from '@ces/store';
import { newExecutionFixture } from '@ces/testing';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

/** Every key under a prefix with its content, the prefix left out of names and values. */
async function contents(redis: Redis, prefix: string): Promise<Record<string, unknown>> {
  const names = await redis.keys(`${prefix}*`);
  const found: Record<string, unknown> = {};
  for (const name of names.sort()) {
    const type = await redis.type(name);
    const value =
      type === 'hash'
        ? await redis.hgetall(name)
        : type === 'zset'
          ? await redis.zrange(name, '0', '-1', 'WITHSCORES')
          : type === 'set'
            ? (await redis.smembers(name)).sort()
            : type === 'string'
              ? await redis.get(name)
              : type;
    found[name.slice(prefix.length)] = JSON.parse(JSON.stringify(value).replaceAll(prefix, '<prefix>'));
  }
  return found;
}

// The batch acceptance of schedule ticks (accept-executions.lua) shares accept-execution.lua's code:
// what it writes is what one acceptance at a time writes, and each execution stands alone.
describe('accepting many executions at once', () => {
  const one = storeOnRedis('accept-one');
  const many = storeOnRedis('accept-many');

  const runs = (account: string) => {
    const at = Date.now();
    return [
      newExecutionFixture({ account, starttime: at, inputs: { Text: 'a' }, storeResults: true }),
      newExecutionFixture({ account, starttime: at + 1, schedule: { name: 'nightly', scheduledTime: at - 5 } }),
      newExecutionFixture({ account: `${account}-other`, starttime: at + 2, choreo: '/Library/Other' }),
    ];
  };

  it('writes what accepting each in turn writes', async () => {
    const executions = runs('acme');
    const accept = async (store: ExecutionStore) => {
      const results = [];
      for (const execution of executions) results.push(await store.accept(execution, { maxRunningPerAccount: 10, maxStoredBytesPerAccount: 1_000_000 }));
      return results;
    };
    expect(await accept(one.store)).toEqual(executions.map(() => ({ outcome: 'accepted' })));
    expect(await many.store.acceptMany(executions, { maxRunningPerAccount: 10, maxStoredBytesPerAccount: 1_000_000 })).toEqual(
      executions.map(() => ({ outcome: 'accepted' })),
    );
    const written = await contents(many.redis, many.prefix);
    expect(Object.keys(written).length).toBeGreaterThan(executions.length * 2);
    expect(written).toEqual(await contents(one.redis, one.prefix));
  });

  it('answers for each on its own: accepted again by the same call, another with its id, over quota, over budget', async () => {
    const { store } = many;
    const [first] = runs('alone') as [ReturnType<typeof newExecutionFixture>];
    const quota = { account: 'full' };
    const results = await store.acceptMany(
      [
        first,
        first,
        { ...first, starttime: first.starttime + 1_000 },
        newExecutionFixture(quota),
        newExecutionFixture(quota),
        newExecutionFixture({ account: 'big', inputs: { Text: 'x'.repeat(5_000) } }),
      ],
      { maxRunningPerAccount: 1, maxStoredBytesPerAccount: 2_000 },
    );
    expect(results.map((result) => result.outcome)).toEqual(['accepted', 'accepted', 'exists', 'accepted', 'quota-exceeded', 'larger-than-budget']);
    expect((await store.acceptMany([{ ...first, starttime: first.starttime + 7 }], { maxRunningPerAccount: 0 }))[0]).toEqual({ outcome: 'exists' });
    expect(await store.acceptMany([], { maxRunningPerAccount: 0 })).toEqual([]);
  });

  it('queues the jobs of the runs it accepted, after their records, and none for a run refused', async () => {
    const { store, redis, keys } = many;
    const queue = createExecutionQueue({ connection: redis, keys });
    const [kept, refused] = [newExecutionFixture({ account: 'queued' }), newExecutionFixture({ account: 'queued' })];
    const sent = acceptThenQueue({ executions: store, queues: singleExecutionQueue(queue) }, [kept, refused], { maxRunningPerAccount: 1 });
    expect((await sent.accepted).map((result) => result.outcome)).toEqual(['accepted', 'quota-exceeded']);
    await sent.queued;
    expect((await queue.getJob(kept.id))?.data).toEqual({ executionId: kept.id });
    expect(await queue.getJob(refused.id)).toBeUndefined();
    // Found accepted already (a firer again after a crash): its job is queued again, once.
    const again = acceptThenQueue({ executions: store, queues: singleExecutionQueue(queue) }, [kept], { maxRunningPerAccount: 1 });
    expect((await again.accepted).map((result) => result.outcome)).toEqual(['accepted']);
    await again.queued;
    expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
    await queue.close();
  });
});
