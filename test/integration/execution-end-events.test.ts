import { createExecutionEvents, createExecutionStore, createKeySpace, type ExecutionEvents, type ExecutionStore } from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, newExecutionFixture, must } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// The end of an execution is published only for a caller that waits for it, and carries the
// ended record so that the caller need not read it back.
describe('execution end events', () => {
  const prefix = isolatedPrefix('ends');
  const keys = createKeySpace(prefix);
  let redis: Redis;
  let subscriber: Redis;
  let listener: Redis;
  let store: ExecutionStore;
  let events: ExecutionEvents;
  const never = async () => false;

  beforeAll(async () => {
    redis = new Redis(inject('redisUrl'));
    subscriber = new Redis(inject('redisUrl'));
    listener = new Redis(inject('redisUrl'));
    store = createExecutionStore({ redis, keys, retentionSeconds: 300 });
    events = await createExecutionEvents({ subscriber, keys, listenFor: ['ends'], pollMs: 60_000 });
  });

  afterAll(async () => {
    await events.close();
    await deleteKeysWithPrefix(redis, prefix);
    for (const connection of [redis, subscriber, listener]) connection.disconnect();
  });

  it('hands the waiter the ended record, without a read', async () => {
    const execution = newExecutionFixture({ inputs: { Text: 'hi' } });
    const watch = events.watchEnd(execution.id, never);
    expect(await store.accept(execution, { maxRunningPerAccount: 0, notifyEnd: true })).toEqual({ outcome: 'accepted' });
    await store.end(execution.id, { status: 'SUCCESS', outputs: { Out: 'aGk=' }, untakenBy: { host: '10.1.1.1', workerId: 'w' } });
    const outcome = await watch.wait(10_000);
    expect(outcome.ended).toBe(true);
    expect(outcome.record).toMatchObject({ id: execution.id, status: 'SUCCESS', output: { Out: 'aGk=' }, host: '10.1.1.1', inputs: { Text: 'hi' } });
    expect(must(outcome.record).endtime).toBeGreaterThanOrEqual(execution.starttime);
    expect(await redis.hexists(keys.execution(execution.id), 'notify')).toBe(0);
  });

  it('publishes nothing for an execution nobody waits for', async () => {
    const messages: string[] = [];
    listener.on('message', (_channel: string, message: string) => messages.push(must(message.split('\n')[0])));
    await listener.subscribe(keys.executionEndedChannel());
    const unwatched = newExecutionFixture();
    const watched = newExecutionFixture();
    await store.accept(unwatched, { maxRunningPerAccount: 0 });
    await store.accept(watched, { maxRunningPerAccount: 0, notifyEnd: true });
    await store.end(unwatched.id, { status: 'SUCCESS' });
    await store.end(watched.id, { status: 'SUCCESS' });
    // Messages arrive in the order published: had the first end been published, it would be first.
    await expect.poll(() => messages, { timeout: 10_000 }).toEqual([watched.id]);
    await listener.unsubscribe();
  });

  it('sends the id alone when the record is too large to carry, and the waiter reads it', async () => {
    const execution = newExecutionFixture();
    const watch = events.watchEnd(execution.id, never);
    await store.accept(execution, { maxRunningPerAccount: 0, notifyEnd: true });
    await store.end(execution.id, { status: 'SUCCESS', outputs: { Big: 'x'.repeat(70_000) } });
    expect(await watch.wait(10_000)).toEqual({ ended: true });
  });

  it('subscribes a process only to what it listens for: a worker hears termination requests, not ends', async () => {
    const count = async (channel: string) => Number(((await redis.pubsub('NUMSUB', channel)) as [string, number])[1]);
    const [endsBefore, terminationsBefore] = [await count(keys.executionEndedChannel()), await count(keys.terminationRequestedChannel())];
    const connection = new Redis(inject('redisUrl'));
    const workerEvents = await createExecutionEvents({ subscriber: connection, keys, listenFor: ['terminations'] });
    try {
      expect(await count(keys.executionEndedChannel())).toBe(endsBefore);
      expect(await count(keys.terminationRequestedChannel())).toBe(terminationsBefore + 1);
      expect(() => workerEvents.watchEnd('a'.repeat(32), never)).toThrow(/'ends'/);
      expect(() => events.onTerminationRequested(() => {})).toThrow(/'terminations'/);
      const requested: string[] = [];
      workerEvents.onTerminationRequested((id) => requested.push(id));
      const execution = newExecutionFixture();
      await store.accept(execution, { maxRunningPerAccount: 0 });
      // Held by a worker: the request is for that worker (one on no worker ends at once).
      await store.take(execution.id, { host: '10.0.0.1', workerId: 'w', lease: 'lease-w' });
      await store.requestTermination(execution.id);
      // Told on the channel's earlier name too, while processes of earlier versions may listen there.
      await expect.poll(() => requested, { timeout: 10_000 }).toEqual([execution.id, execution.id]);
    } finally {
      await workerEvents.close();
      connection.disconnect();
    }
  });
});
