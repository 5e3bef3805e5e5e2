import type { NewExecution } from '@ces/store';
import { newExecutionFixture } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// A parent suspended while its child runs is made due by the child's end, in the script that ends
// the child, and a child that ended before the suspension was stored makes the suspension due at
// once: no end is missed between the two. The store's side, against a real Redis.
describe('a parent suspended while waiting for its child', () => {
  const { keys, redis, store } = storeOnRedis('child-waits');
  const LATER = () => Date.now() + 3_600_000;

  async function accept(overrides: Partial<NewExecution> = {}): Promise<string> {
    const execution = newExecutionFixture(overrides);
    expect(await store.accept(execution, { maxRunningPerAccount: 0, notifyParent: execution.parent !== undefined })).toEqual({ outcome: 'accepted' });
    return execution.id;
  }
  const take = async (id: string, lease: string) => {
    expect((await store.take(id, { host: '10.0.0.1', workerId: 'w1', lease })).outcome).toBe('taken');
  };
  const dueAt = async (id: string) => Number(await redis.zscore(keys.waiting(), id));

  /** A parent with a running child, suspended until `untilMs` waiting for it. */
  async function suspendedParent(untilMs = LATER()) {
    const parent = await accept();
    const child = await accept({ parent, depth: 1 });
    await take(parent, 'lease-p');
    expect(await store.suspend(parent, 'lease-p', { untilMs, children: [child] })).toBe('suspended');
    return { parent, child, untilMs };
  }

  it('keeps the wait until its time while the child runs, and the child’s end makes it due at once and names it', async () => {
    const untilMs = LATER();
    const { parent, child } = await suspendedParent(untilMs);
    expect(await dueAt(parent)).toBe(untilMs);
    expect(await store.waitIsDue(parent, untilMs)).toBe(false);

    const before = Date.now();
    expect(await store.end(child, { status: 'SUCCESS' })).toEqual({ outcome: 'ended', status: 'SUCCESS', wokenParents: [parent] });
    expect(await dueAt(parent)).toBeGreaterThanOrEqual(before);
    expect(await dueAt(parent)).toBeLessThanOrEqual(Date.now());
    expect(await store.waitIsDue(parent, untilMs)).toBe(true);
    expect((await store.overdueWaits(Date.now(), 10)).map((wait) => wait.id)).toContain(parent);
    expect((await store.overdueWaits(before - 1, 10)).map((wait) => wait.id)).not.toContain(parent);
  });

  it('is due at once when the child ended before the suspension was stored', async () => {
    const parent = await accept();
    const child = await accept({ parent, depth: 1 });
    await take(parent, 'lease-p');
    // Its end finds the parent held, not suspended: nobody to wake.
    expect(await store.end(child, { status: 'ERROR', error: 'boom' })).toEqual({ outcome: 'ended', status: 'ERROR' });
    const untilMs = LATER();
    expect(await store.suspend(parent, 'lease-p', { untilMs, children: [child] })).toBe('suspended');
    expect(await store.waitIsDue(parent, untilMs)).toBe(true);
  });

  it('is due as soon as any of its children ends', async () => {
    const parent = await accept();
    const first = await accept({ parent, depth: 1 });
    const second = await accept({ parent, depth: 1 });
    await take(parent, 'lease-p');
    const untilMs = LATER();
    expect(await store.suspend(parent, 'lease-p', { untilMs, children: [first, second] })).toBe('suspended');
    expect(await store.waitIsDue(parent, untilMs)).toBe(false);
    expect(await store.end(second, { status: 'SUCCESS' })).toMatchObject({ wokenParents: [parent] });
    expect(await store.waitIsDue(parent, untilMs)).toBe(true);
  });

  it('is made due by the termination of its child too, and names it', async () => {
    const { parent, child, untilMs } = await suspendedParent();
    expect(await store.requestTermination(child)).toEqual({ status: 'RUNNING', ended: true, wokenParents: [parent] });
    expect(await store.waitIsDue(parent, untilMs)).toBe(true);
  });

  it('terminated itself, ends with its child and wakes nobody', async () => {
    const { parent, child } = await suspendedParent();
    expect(await store.requestTermination(parent)).toEqual({ status: 'RUNNING', ended: true });
    expect((await store.get(child))?.status).toBe('TERMINATED_MANUALLY');
    expect(await redis.zscore(keys.waiting(), parent)).toBeNull();
  });

  it('taken again (its take leaves the waiting set), is not made due by a later end of a child', async () => {
    const { parent, child } = await suspendedParent();
    await take(parent, 'lease-p2');
    expect(await store.end(child, { status: 'SUCCESS' })).toEqual({ outcome: 'ended', status: 'SUCCESS' });
    expect(await redis.zscore(keys.waiting(), parent)).toBeNull();
  });
});
