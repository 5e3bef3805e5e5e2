import { createHistorySweep, createRunHistory } from '@ces/store';
import { newExecutionFixture } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// The run history's indexes are written by the scripts that accept and end runs; reads go newest
// first by (start time, id) so that a cursor stays stable while runs are added.
describe('run history', () => {
  const { store, redis, keys } = storeOnRedis('history', 1);
  const history = createRunHistory({ redis, keys });
  // Runs that outlive the test however slowly it goes: the other store keeps ended runs 1 s.
  const retained = storeOnRedis('history-retained');
  const retainedHistory = createRunHistory({ redis: retained.redis, keys: retained.keys });

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

  it("pages through an account's runs of every status, read from its status indexes side by side", async () => {
    const base = Date.now();
    const runs = Array.from({ length: 450 }, (_, i) => newExecutionFixture({ account: 'h5', choreo: 'x', starttime: base + Math.floor(i / 3) }));
    for (const run of runs) await retained.store.accept(run, { maxRunningPerAccount: 0 });
    for (const [i, run] of runs.entries()) {
      if (i % 3 === 1) await retained.store.end(run.id, { status: 'SUCCESS' });
      if (i % 3 === 2) await retained.store.end(run.id, { status: 'ERROR', error: 'boom' });
    }
    const newestFirst = [...runs].sort((a, b) => b.starttime - a.starttime || (b.id > a.id ? 1 : -1)).map((run) => run.id);
    const seen: string[] = [];
    let page = await retainedHistory.list({ account: 'h5', limit: 100 });
    for (;;) {
      seen.push(...page.entries.map((entry) => entry.id));
      if (!page.next) break;
      page = await retainedHistory.list({ account: 'h5', limit: 100, cursor: page.next });
    }
    expect(seen).toEqual(newestFirst);
  });

  it('drops entries of records that expired after their retention', async () => {
    const run = newExecutionFixture({ account: 'h3' });
    await store.accept(run, { maxRunningPerAccount: 0 });
    await store.end(run.id, { status: 'SUCCESS' });
    expect((await history.list({ account: 'h3', limit: 5 })).entries).toHaveLength(1);
    const deadline = Date.now() + 5000;
    while ((await redis.exists(keys.execution(run.id))) === 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await history.list({ account: 'h3', limit: 5 })).entries).toEqual([]);
    expect(await redis.zcard(keys.accountHistoryByStatus('h3', 'SUCCESS'))).toBe(0);
  });

  it('sweeps expired runs out of the indexes no read went through, and only those', async () => {
    const expiring = newExecutionFixture({ account: 'h4', choreo: 'gone' });
    const kept = newExecutionFixture({ account: 'h4', choreo: 'kept' });
    const running = newExecutionFixture({ account: 'h4', choreo: 'gone' });
    for (const run of [expiring, kept, running]) await store.accept(run, { maxRunningPerAccount: 0 });
    await store.end(expiring.id, { status: 'ERROR', error: 'boom' });
    // What an earlier version kept for every account: the sweep deletes it.
    await redis.zadd(keys.legacyAccountHistory('h4'), 1, expiring.id);
    const indexesOf = async (id: string) => {
      const candidates = [
        keys.history(),
        keys.accountHistoryByStatus('h4', 'ERROR'),
        keys.accountHistoryByStatus('h4', 'RUNNING'),
        keys.accountHistoryByChoreo('h4', 'gone'),
        keys.accountHistoryByChoreo('h4', 'kept'),
      ];
      const found: string[] = [];
      for (const index of candidates) if ((await redis.zscore(index, id)) !== null) found.push(index);
      return found;
    };
    expect(await indexesOf(expiring.id)).toEqual([keys.history(), keys.accountHistoryByStatus('h4', 'ERROR'), keys.accountHistoryByChoreo('h4', 'gone')]);
    const deadline = Date.now() + 5000;
    while ((await redis.exists(keys.execution(expiring.id))) === 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));

    const sweep = createHistorySweep({ redis, keys, lockMs: 60_000 });
    const report = await sweep.sweep('sweeper-1');
    expect(report?.removed).toBeGreaterThanOrEqual(3);
    expect(await indexesOf(expiring.id)).toEqual([]);
    expect(await indexesOf(kept.id)).toEqual([keys.history(), keys.accountHistoryByStatus('h4', 'RUNNING'), keys.accountHistoryByChoreo('h4', 'kept')]);
    expect(await indexesOf(running.id)).toEqual([keys.history(), keys.accountHistoryByStatus('h4', 'RUNNING'), keys.accountHistoryByChoreo('h4', 'gone')]);
    expect(await redis.exists(keys.legacyAccountHistory('h4'))).toBe(0);
    // One pass per lock period, whichever process offers.
    expect(await sweep.sweep('sweeper-2')).toBeUndefined();
  });
});
