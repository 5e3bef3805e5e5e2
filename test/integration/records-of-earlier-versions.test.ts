import { createExecutionEvents, type ExecutionEvents } from '@ces/store';
import { must, newExecutionFixture, waitFor } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// Records and messages written by processes of earlier versions, as a running deployment holds
// them across an upgrade: the termination flag named `cancel`, the lease let go of named
// `released`, requests published on `events:cancel-requested`.
describe('records and messages of earlier versions', () => {
  const { keys, redis, store } = storeOnRedis('earlier-versions');
  let subscriber: Redis;
  let events: ExecutionEvents;
  const heard: string[] = [];
  const published: { channel: string; id: string }[] = [];
  let listener: Redis;

  beforeAll(async () => {
    subscriber = new Redis(inject('redisUrl'));
    events = await createExecutionEvents({ subscriber, keys, listenFor: ['terminations'] });
    events.onTerminationRequested((id) => heard.push(id));
    listener = new Redis(inject('redisUrl'));
    listener.on('message', (channel: string, id: string) => published.push({ channel, id }));
    await listener.subscribe(keys.terminationRequestedChannel(), keys.legacyTerminationRequestedChannel());
  });
  afterAll(async () => {
    await events.close();
    subscriber.disconnect();
    listener.disconnect();
  });

  async function accept(overrides: Parameters<typeof newExecutionFixture>[0] = {}): Promise<string> {
    const execution = newExecutionFixture(overrides);
    expect(await store.accept(execution, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    return execution.id;
  }

  it('takes a run flagged and handed back the earlier way, stops it at its checkpoint and ends it TERMINATED_MANUALLY', async () => {
    const id = await accept();
    await redis.hset(keys.execution(id), 'cancel', '1', 'lease', '', 'released', 'lease-old');

    const taken = await store.take(id, { host: '10.0.0.1', workerId: 'w1', lease: 'lease-new' });
    expect(taken).toMatchObject({ outcome: 'taken', record: { terminationRequested: true } });
    expect(await store.terminationRequested(id)).toBe(true);
    expect((await store.listRunning('acme')).find((row) => row.id === id)?.terminationRequested).toBe(true);
    expect(await store.checkpoint(id, { nextStep: 1, results: {}, outputs: {} }, 'lease-new')).toBe('termination-requested');
    expect(await store.end(id, { status: 'SUCCESS', lease: 'lease-new' })).toEqual({ outcome: 'ended', status: 'TERMINATED_MANUALLY' });
    expect(await redis.hmget(keys.execution(id), 'released', 'letgo', 'lease')).toEqual([null, null, null]);
  });

  it('resumes a top-level wait suspended the earlier way (its entries in the field `wait`), then drops the field at the checkpoint after it', async () => {
    const id = await accept();
    expect((await store.take(id, { host: '10.0.0.1', workerId: 'w1', lease: 'lease-w' })).outcome).toBe('taken');
    expect(await store.checkpoint(id, { nextStep: 1, results: { first: 'done' }, outputs: {} }, 'lease-w')).toBe('continue');
    expect(await store.suspend(id, 'lease-w', { untilMs: Date.now() + 60_000 })).toBe('suspended');
    const due = Date.now() + 60_000;
    await redis.hset(keys.execution(id), 'wait', JSON.stringify({ 'pause@': due }));

    const taken = await store.take(id, { host: '10.0.0.2', workerId: 'w2', lease: 'lease-x' });
    expect(taken).toMatchObject({ outcome: 'taken', record: { nextStep: 1, results: { first: 'done' }, waitEntries: { 'pause@': due } } });
    expect(await store.checkpoint(id, { nextStep: 2, results: { first: 'done', pause: null }, outputs: {} }, 'lease-x')).toBe('continue');
    expect(await redis.hexists(keys.execution(id), 'wait')).toBe(0);
  });

  it('appends a top-level wait to the progress, read back by the take, and deletes it with the checkpoint after the wait', async () => {
    const id = await accept();
    expect((await store.take(id, { host: '10.0.0.1', workerId: 'w1', lease: 'lease-p' })).outcome).toBe('taken');
    const due = Date.now() + 60_000;
    expect(await store.suspend(id, 'lease-p', { untilMs: due, waitEntries: [['pause@', due]] })).toBe('suspended');
    expect(await redis.hexists(keys.execution(id), 'wait')).toBe(0);

    const taken = await store.take(id, { host: '10.0.0.2', workerId: 'w2', lease: 'lease-q' });
    expect(taken).toMatchObject({ outcome: 'taken', record: { progressCursor: 'pause@' } });
    expect([...(await store.progress(id))]).toEqual([['pause@', due]]);
    expect(await store.checkpoint(id, { nextStep: 1, results: { pause: null }, outputs: {} }, 'lease-q')).toBe('continue');
    expect(await redis.exists(keys.executionProgress(id))).toBe(0);
  });

  it('leaves a held run flagged the earlier way to its worker when its termination is requested again, and tells it', async () => {
    const id = await accept();
    expect((await store.take(id, { host: '10.0.0.1', workerId: 'w1', lease: 'lease-a' })).outcome).toBe('taken');
    await redis.hset(keys.execution(id), 'cancel', '1');

    expect(await store.requestTermination(id)).toEqual({ status: 'RUNNING', ended: false });
    await waitFor(() => heard.includes(id), { what: 'the termination message' });
    expect(await store.handBack(id, 'lease-a')).toBe('handed-back');
    expect((await store.listRunning('acme')).find((row) => row.id === id)?.terminationRequested).toBe(true);
    expect(await store.requestTermination(id)).toEqual({ status: 'RUNNING', ended: true });
    expect(must(await store.get(id)).status).toBe('TERMINATED_MANUALLY');
  });

  it('accepts a child of a parent flagged the earlier way flagged itself', async () => {
    const parent = await accept();
    await redis.hset(keys.execution(parent), 'cancel', '1');
    const child = await accept({ parent, depth: 1 });
    expect(must(await store.get(child)).terminationRequested).toBe(true);
  });

  it('hears a request published on the channel of earlier versions', async () => {
    await redis.publish(keys.legacyTerminationRequestedChannel(), 'exec-from-an-earlier-api');
    await waitFor(() => heard.includes('exec-from-an-earlier-api'), { what: 'the message of an earlier API' });
  });

  it('flags a run by both names and publishes on both channels, for workers not yet upgraded', async () => {
    const id = await accept();
    expect((await store.take(id, { host: '10.0.0.1', workerId: 'w1', lease: 'lease-b' })).outcome).toBe('taken');
    expect(await store.requestTermination(id)).toEqual({ status: 'RUNNING', ended: false });
    expect(await redis.hmget(keys.execution(id), 'terminate', 'cancel')).toEqual(['1', '1']);
    await waitFor(() => published.filter((message) => message.id === id).length === 2, { what: 'both messages' });
    expect(published.filter((message) => message.id === id).map(({ channel }) => channel)).toEqual(
      expect.arrayContaining([keys.terminationRequestedChannel(), keys.legacyTerminationRequestedChannel()]),
    );
  });
});
