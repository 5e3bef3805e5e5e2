import { newExecutionFixture } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// The fleet-wide counters behind the API's `ces_service_executions_*_total`: counted by the same
// scripts that accept and end executions, so once per execution whatever process did it.
describe('execution counts kept in Redis', () => {
  const { store } = storeOnRedis('counts');

  it('counts each acceptance once, and each end once under its final status', async () => {
    const ok = newExecutionFixture();
    const failed = newExecutionFixture();
    const cancelled = newExecutionFixture();
    for (const execution of [ok, failed, cancelled]) expect(await store.accept(execution, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    await store.end(ok.id, { status: 'SUCCESS' });
    await store.end(failed.id, { status: 'ERROR', error: 'boom' });
    // Terminated on no worker: it ends, and is counted, as TERMINATED_MANUALLY; a late end is not.
    expect(await store.requestTermination(cancelled.id)).toEqual({ status: 'RUNNING', ended: true });
    expect(await store.end(cancelled.id, { status: 'SUCCESS' })).toMatchObject({ outcome: 'not-running' });
    expect(await store.counts()).toEqual({ started: 3, ended: { SUCCESS: 1, ERROR: 1, TERMINATED_MANUALLY: 1, TERMINATED_LIMIT: 0 } });
  });

  it('counts nothing for a resent acceptance, a refused one, an end that did not apply, or one under a lost lease', async () => {
    const before = await store.counts();
    const execution = newExecutionFixture({ account: 'quota' });
    await store.accept(execution, { maxRunningPerAccount: 1 });
    // The same call again (a reply lost on a dropped connection) is the same acceptance.
    expect(await store.accept(execution, { maxRunningPerAccount: 1 })).toEqual({ outcome: 'accepted' });
    expect(await store.accept(newExecutionFixture({ account: 'quota' }), { maxRunningPerAccount: 1 })).toEqual({ outcome: 'quota-exceeded' });
    const taken = await store.take(execution.id, { host: '10.0.0.1', workerId: 'w', lease: 'first' });
    expect(taken.outcome).toBe('taken');
    expect(await store.end(execution.id, { status: 'SUCCESS', lease: 'stale' })).toEqual({ outcome: 'superseded' });
    expect(await store.end(execution.id, { status: 'ERROR', lease: 'first' })).toEqual({ outcome: 'ended', status: 'ERROR' });
    expect(await store.end(execution.id, { status: 'SUCCESS' })).toEqual({ outcome: 'not-running', status: 'ERROR' });
    const after = await store.counts();
    expect(after.started - before.started).toBe(1);
    expect(after.ended.ERROR - before.ended.ERROR).toBe(1);
    expect(after.ended.SUCCESS).toBe(before.ended.SUCCESS);
  });
});
