import { createRunHistory } from '@ces/store';
import { newExecutionFixture } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// The run history's indexes are written by the scripts that accept and end runs; reads go newest
// first by (start time, id) so that a cursor stays stable while runs are added.
describe('run history', () => {
  const { store, redis, keys } = storeOnRedis('history', 1);
  const history = createRunHistory({ redis, keys });

  it('finds runs by status, Choreo and start time, newest first, in pages', async () => {
    const base = Date.now();
    const a = newExecutionFixture({ account: 'h1', choreo: 'x', starttime: base });
    const b = newExecutionFixture({ account: 'h1', choreo: 'y', starttime: base + 1 });
    const c = newExecutionFixture({ account: 'h1', choreo: 'x', starttime: base + 2 });
    const other = newExecutionFixture({ account: 'h2', choreo: 'x', starttime: base + 3 });
    for (const run of [a, b, c, other]) expect(await store.accept(run, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    await store.end(a.id, { status: 'SUCCESS' });
    await store.end(b.id, { status: 'ERROR', error: 'boom' });
    expect(await store.requestTermination(c.id)).toMatchObject({ ended: true });

    const ids = async (query: Parameters<typeof history.list>[0]) => (await history.list(query)).entries.map((entry) => entry.id);
    expect(await ids({ account: 'h1', limit: 10 })).toEqual([c.id, b.id, a.id]);
    expect(await ids({ account: 'h1', status: 'SUCCESS', limit: 10 })).toEqual([a.id]);
    expect(await ids({ account: 'h1', status: 'RUNNING', limit: 10 })).toEqual([]);
    expect(await ids({ account: 'h1', choreo: 'x', limit: 10 })).toEqual([c.id, a.id]);
    expect(await ids({ account: 'h1', choreo: 'x', status: 'TERMINATED_MANUALLY', limit: 10 })).toEqual([c.id]);
    expect(await ids({ account: 'h1', since: base + 1, until: base + 1, limit: 10 })).toEqual([b.id]);
    expect(await ids({ choreo: 'x', limit: 10 })).toEqual([other.id, c.id, a.id]);

    const first = await history.list({ account: 'h1', limit: 2 });
    expect(first.entries.map((entry) => entry.id)).toEqual([c.id, b.id]);
    // A newer run added between pages appears in neither the next page nor as a duplicate.
    await store.accept(newExecutionFixture({ account: 'h1', choreo: 'x', starttime: base + 10 }), { maxRunningPerAccount: 0 });
    const second = await history.list({ account: 'h1', limit: 2, ...(first.next ? { cursor: first.next } : {}) });
    expect(second.entries.map((entry) => entry.id)).toEqual([a.id]);
    expect(second.entries[0]).toMatchObject({ status: 'SUCCESS', endtime: expect.any(Number) });
  });

  it('drops entries of records that expired after their retention', async () => {
    const run = newExecutionFixture({ account: 'h3' });
    await store.accept(run, { maxRunningPerAccount: 0 });
    await store.end(run.id, { status: 'SUCCESS' });
    expect((await history.list({ account: 'h3', limit: 5 })).entries).toHaveLength(1);
    const deadline = Date.now() + 5000;
    while ((await redis.exists(keys.execution(run.id))) === 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await history.list({ account: 'h3', limit: 5 })).entries).toEqual([]);
    expect(await redis.zcard(keys.accountHistory('h3'))).toBe(0);
  });
});
