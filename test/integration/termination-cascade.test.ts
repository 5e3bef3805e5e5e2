import type { NewExecution } from '@ces/store';
import { must, newExecutionFixture, waitFor } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// A termination or an end reaches every running descendant in the script that makes it, whether
// or not a worker holds the parent: the store's side of sub-Choreos, against a real Redis.
describe('termination cascading to child executions', () => {
  const { keys, redis, store } = storeOnRedis('cascade');
  let subscriber: Redis;
  const flagged: string[] = [];
  const childEnds: string[] = [];

  beforeAll(async () => {
    subscriber = new Redis(inject('redisUrl'));
    subscriber.on('message', (channel: string, id: string) => (channel === keys.terminationRequestedChannel() ? flagged : childEnds).push(id));
    await subscriber.subscribe(keys.terminationRequestedChannel(), keys.childEndedChannel());
  });
  afterAll(() => subscriber.disconnect());

  async function accept(overrides: Partial<NewExecution> = {}): Promise<string> {
    const execution = newExecutionFixture(overrides);
    expect(await store.accept(execution, { maxRunningPerAccount: 0, notifyParent: execution.parent !== undefined })).toEqual({ outcome: 'accepted' });
    return execution.id;
  }
  const childOf = (parent: string, depth = 1, overrides: Partial<NewExecution> = {}) => accept({ parent, depth, ...overrides });
  const take = async (id: string, worker: string) => {
    expect((await store.take(id, { host: '10.0.0.1', workerId: worker, lease: `lease-${worker}` })).outcome).toBe('taken');
  };
  const statusOf = async (id: string) => must(await store.get(id)).status;
  const runningChildren = (id: string) => redis.smembers(keys.executionChildren(id));

  it('records running children, and a child leaves its parent’s set when it ends', async () => {
    const parent = await accept();
    const first = await childOf(parent);
    const second = await childOf(parent);
    expect((await runningChildren(parent)).sort()).toEqual([first, second].sort());
    expect(await redis.ttl(keys.executionChildren(parent))).toBe(-1);
    expect(await store.end(first, { status: 'SUCCESS' })).toEqual({ outcome: 'ended', status: 'SUCCESS' });
    expect(await runningChildren(parent)).toEqual([second]);
  });

  it('ends at once the descendants no worker holds and flags those a worker holds, the parent queued', async () => {
    const parent = await accept();
    const queued = await childOf(parent);
    const held = await childOf(parent);
    const grandchild = await childOf(held, 2);
    const suspended = await childOf(grandchild, 3);
    await take(held, 'w1');
    await take(suspended, 'w2');
    expect(await store.suspend(suspended, 'lease-w2', { untilMs: Date.now() + 60_000 })).toBe('suspended');

    // The parent itself waits in the queue: it ends at once, by the same rule.
    expect(await store.requestTermination(parent)).toEqual({ status: 'RUNNING', ended: true });
    expect(await statusOf(parent)).toBe('TERMINATED_MANUALLY');

    expect(await statusOf(queued)).toBe('TERMINATED_MANUALLY');
    expect(await statusOf(grandchild)).toBe('TERMINATED_MANUALLY');
    expect(await statusOf(suspended)).toBe('TERMINATED_MANUALLY');
    expect(must(await store.get(held))).toMatchObject({ status: 'RUNNING', terminationRequested: true });
    await waitFor(() => flagged.includes(held), { what: 'the termination message' });
    expect(flagged).not.toContain(parent);
    await waitFor(() => [queued, grandchild, suspended].every((id) => childEnds.includes(id)), { what: 'the ends of the children' });
    // Ended ones leave every index of running executions; the held one stays listed, flagged.
    for (const id of [parent, queued, grandchild, suspended]) {
      expect(await redis.zscore(keys.running(), id)).toBeNull();
      expect(await redis.zscore(keys.waiting(), id)).toBeNull();
      expect(await redis.sismember(keys.accountRunning('acme'), id)).toBe(0);
      expect(await redis.ttl(keys.execution(id))).toBeGreaterThan(0);
    }
    expect(await runningChildren(parent)).toEqual([held]);
    expect((await store.listRunning('acme')).find((row) => row.id === held)?.terminationRequested).toBe(true);
    // The held child's worker ends it: the flag makes it TERMINATED_MANUALLY, and it leaves the set.
    expect(await store.end(held, { status: 'SUCCESS', lease: 'lease-w1' })).toEqual({ outcome: 'ended', status: 'TERMINATED_MANUALLY' });
    expect(await runningChildren(parent)).toEqual([]);
  });

  it('terminates the running children of a parent that ends in any status, and keeps terminal ones final', async () => {
    const parent = await accept();
    await take(parent, 'w3');
    const done = await childOf(parent);
    expect(await store.end(done, { status: 'SUCCESS' })).toMatchObject({ outcome: 'ended' });
    const queued = await childOf(parent);
    const held = await childOf(parent);
    await take(held, 'w4');

    // A parallel branch failed: the parent ends ERROR while its children still run.
    expect(await store.end(parent, { status: 'ERROR', error: 'a branch failed', lease: 'lease-w3' })).toEqual({ outcome: 'ended', status: 'ERROR' });
    expect(await statusOf(done)).toBe('SUCCESS');
    expect(await statusOf(queued)).toBe('TERMINATED_MANUALLY');
    expect(must(await store.get(held)).terminationRequested).toBe(true);
    expect(await redis.ttl(keys.executionChildren(parent))).toBeGreaterThan(0);
  });

  it("ends a child past its deadline TERMINATED_LIMIT with a parent at its time limit, and leaves a held one to its worker's deadline", async () => {
    const deadline = Date.now() - 1;
    const parent = await accept({ deadline });
    await take(parent, 'w5');
    const queued = await childOf(parent, 1, { deadline });
    const held = await childOf(parent, 1, { deadline });
    await take(held, 'w6');
    expect(await store.end(parent, { status: 'TERMINATED_LIMIT', lease: 'lease-w5' })).toEqual({ outcome: 'ended', status: 'TERMINATED_LIMIT' });
    expect(await statusOf(queued)).toBe('TERMINATED_LIMIT');
    expect(must(await store.get(held))).toMatchObject({ status: 'RUNNING', terminationRequested: false });
  });

  it('accepts a child of a parent whose termination was requested, or that has ended, with its own termination requested', async () => {
    const parent = await accept();
    await take(parent, 'w7');
    expect(await store.requestTermination(parent)).toEqual({ status: 'RUNNING', ended: false });
    // The parent's worker was in its choreo.run step when the request came.
    const late = await childOf(parent);
    expect(must(await store.get(late)).terminationRequested).toBe(true);
    expect((await store.listRunning('acme')).find((row) => row.id === late)?.terminationRequested).toBe(true);
    expect(await runningChildren(parent)).toEqual([]);

    const ended = await accept();
    expect(await store.end(ended, { status: 'SUCCESS' })).toMatchObject({ outcome: 'ended' });
    const orphan = await childOf(ended);
    expect(must(await store.get(orphan)).terminationRequested).toBe(true);
    // Its take hands it over flagged: the worker ends it before its first step.
    expect(await store.take(orphan, { host: '10.0.0.1', workerId: 'w8', lease: 'lease-w8' })).toMatchObject({
      outcome: 'taken',
      record: { terminationRequested: true },
    });
  });

  it('passes a termination request on from an ended parent to a straggler, and ends nothing terminal', async () => {
    const parent = await accept();
    const child = await childOf(parent);
    // As if the child had been recorded after its parent's end cascaded.
    await redis.hset(keys.execution(parent), 'status', 'ERROR');
    expect(await store.requestTermination(parent)).toEqual({ status: 'ERROR', ended: false });
    expect(await statusOf(child)).toBe('TERMINATED_MANUALLY');
    expect(await statusOf(parent)).toBe('ERROR');
    expect(await store.requestTermination(child)).toEqual({ status: 'TERMINATED_MANUALLY', ended: false });
  });
});
