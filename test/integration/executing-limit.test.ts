import { newExecutionFixture, must } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// The limit on executions one account has taken at once, against a real Redis: the take script
// enters a run in its account's executing set or refuses it while the set is full, and every way
// out of the set (an end, a hand-back, a record gone) frees the place.
describe('executions taken at once per account', () => {
  const { keys, redis, store } = storeOnRedis('executing');

  async function queued(account: string, overrides: { deadline?: number } = {}): Promise<string> {
    const execution = newExecutionFixture({ account, ...overrides });
    expect(await store.accept(execution, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    return execution.id;
  }
  const take = (id: string, lease: string, limit = 2) => store.take(id, { host: '10.0.0.1', workerId: 'w', lease, maxExecutingPerAccount: limit });
  const executing = (account: string) => redis.smembers(keys.accountExecuting(account));

  it('refuses a take beyond the limit, counting refusals, while other accounts are taken', async () => {
    const [a1, a2, a3] = [await queued('alpha'), await queued('alpha'), await queued('alpha')];
    const b1 = await queued('beta');
    expect(await take(a1, 'l1')).toMatchObject({ outcome: 'taken', record: { id: a1, host: '10.0.0.1', lease: 'l1' } });
    expect(await take(a2, 'l2')).toMatchObject({ outcome: 'taken' });
    // Of alpha's three RUNNING executions, one is not taken: a3 itself.
    const deadline = must(await store.get(a3)).deadline;
    expect(await take(a3, 'l3')).toEqual({ outcome: 'deferred', deferrals: 1, waiting: 1, deadline });
    expect(await take(a3, 'l3b')).toEqual({ outcome: 'deferred', deferrals: 2, waiting: 1, deadline });
    // Refused means untouched: still waiting, no host, no lease.
    expect(await store.get(a3)).toMatchObject({ status: 'RUNNING', host: '', lease: '' });
    expect(await take(b1, 'lb')).toMatchObject({ outcome: 'taken' });
    expect((await executing('alpha')).sort()).toEqual([a1, a2].sort());

    // An end frees its place, and the ended record keeps no count of refusals.
    expect(await store.end(a1, { status: 'SUCCESS', lease: 'l1', account: 'alpha' })).toEqual({ outcome: 'ended', status: 'SUCCESS' });
    expect(await take(a3, 'l3c')).toMatchObject({ outcome: 'taken', record: { lease: 'l3c' } });
    expect(await store.end(a3, { status: 'SUCCESS', lease: 'l3c', account: 'alpha' })).toMatchObject({ outcome: 'ended' });
    expect(await redis.hexists(keys.execution(a3), 'deferrals')).toBe(0);
    expect(await executing('alpha')).toEqual([a2]);
  });

  it('frees the place of a run handed back, and takes again a run it holds already', async () => {
    const [c1, c2, c3] = [await queued('gamma'), await queued('gamma'), await queued('gamma'), await queued('gamma')];
    await take(c1, 'l1');
    await take(c2, 'l2');
    // c1's worker died; another worker takes it again, though the account is at its limit.
    expect(await take(c1, 'l1-again')).toMatchObject({ outcome: 'taken', record: { lease: 'l1-again' } });
    // Two of gamma's four wait: c3, and c4 behind it.
    expect(await take(c3, 'l3')).toMatchObject({ outcome: 'deferred', deferrals: 1, waiting: 2 });
    expect(await store.handBack(c2, 'l2')).toBe('handed-back');
    expect(await executing('gamma')).toEqual([c1]);
    expect(await take(c3, 'l3b')).toMatchObject({ outcome: 'taken' });
  });

  it('does not count a member whose record ended, lost its lease or is gone', async () => {
    const [d1, d2, d3, d4] = [await queued('delta'), await queued('delta'), await queued('delta'), await queued('delta')];
    await take(d1, 'l1', 3);
    await take(d2, 'l2', 3);
    await take(d3, 'l3', 3);
    expect(await take(d4, 'l4', 3)).toMatchObject({ outcome: 'deferred' });
    // Ends that left the set behind: a record deleted by hand, and one ended without the script.
    await redis.del(keys.execution(d1));
    await redis.hset(keys.execution(d2), 'status', 'ERROR');
    expect(await take(d4, 'l4b', 3)).toMatchObject({ outcome: 'taken' });
    expect((await executing('delta')).sort()).toEqual([d3, d4].sort());
  });

  it('finds a member left behind among many within a few refusals', async () => {
    const limit = 48;
    const members: string[] = [];
    for (let i = 0; i < limit; i += 1) {
      const id = await queued('eta');
      await take(id, `l${i}`, limit);
      members.push(id);
    }
    const waiting = await queued('eta');
    await redis.del(keys.execution(must(members[17])));
    // Each refusal checks a sample of the members; the lost one is found with near certainty.
    let refusals = 0;
    while ((await take(waiting, 'lw', limit)).outcome === 'deferred') {
      refusals += 1;
      expect(refusals).toBeLessThan(100);
    }
    expect(await redis.sismember(keys.accountExecuting('eta'), must(members[17]))).toBe(0);
    expect(await redis.scard(keys.accountExecuting('eta'))).toBe(limit);
  });

  it('takes a run whose termination was requested, or whose deadline has passed, even at the limit', async () => {
    const [e1, e2] = [await queued('epsilon'), await queued('epsilon')];
    const cancelled = await queued('epsilon');
    const late = await queued('epsilon', { deadline: Date.now() - 1 });
    const waiting = await queued('epsilon');
    // Flagged on a worker that then handed it back (a worker shutting down, say): its next take ends it.
    await take(cancelled, 'lc0');
    expect(await store.requestTermination(cancelled)).toEqual({ status: 'RUNNING', ended: false });
    expect(await store.handBack(cancelled, 'lc0')).toBe('handed-back');
    await take(e1, 'l1');
    await take(e2, 'l2');
    expect(await take(waiting, 'lw')).toMatchObject({ outcome: 'deferred' });
    // Each of these ends at once once taken; refusing them would keep them waiting for nothing.
    expect(await take(cancelled, 'lc')).toMatchObject({ outcome: 'taken', record: { terminationRequested: true } });
    expect(await take(late, 'll')).toMatchObject({ outcome: 'taken' });
  });

  it('writes no set without a limit, and answers an ended or missing run as before', async () => {
    const ids = [await queued('zeta'), await queued('zeta'), await queued('zeta')];
    for (const [i, id] of ids.entries()) expect(await take(id, `l${i}`, 0)).toMatchObject({ outcome: 'taken' });
    expect(await redis.exists(keys.accountExecuting('zeta'))).toBe(0);
    await store.end(must(ids[0]), { status: 'SUCCESS', lease: 'l0', account: 'zeta' });
    expect(await take(must(ids[0]), 'again')).toMatchObject({ outcome: 'ended', record: { status: 'SUCCESS' } });
    expect(await take('ab'.repeat(16), 'none')).toEqual({ outcome: 'missing' });
  });
});
