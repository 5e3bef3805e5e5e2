import { type NodeDefinition, resumePoint } from '@ces/language';
import { createExecutionEvents, type ExecutionEvents, redriveStart } from '@ces/store';
import { must, newExecutionFixture, waitFor } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// Records and messages written by processes of earlier versions, as a running deployment holds
// them across an upgrade: the termination flag named `cancel`, the lease let go of named
// `released`, requests published on `events:cancel-requested`, every result so far in the field
// `results` (and the step reached in `step`) rewritten at each checkpoint.
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
    expect(await store.checkpoint(id, { nextStep: 1, entries: [], outputs: {} }, 'lease-new')).toBe('termination-requested');
    expect(await store.end(id, { status: 'SUCCESS', lease: 'lease-new' })).toEqual({ outcome: 'ended', status: 'TERMINATED_MANUALLY' });
    expect(await redis.hmget(keys.execution(id), 'released', 'letgo', 'lease')).toEqual([null, null, null]);
  });

  it('resumes a top-level wait suspended the earlier way (its entries in the field `wait`), then drops the field at the checkpoint after it', async () => {
    const id = await accept();
    expect((await store.take(id, { host: '10.0.0.1', workerId: 'w1', lease: 'lease-w' })).outcome).toBe('taken');
    await redis.hset(keys.execution(id), 'step', '1', 'results', JSON.stringify({ first: 'done' }));
    expect(await store.suspend(id, 'lease-w', { untilMs: Date.now() + 60_000 })).toBe('suspended');
    const due = Date.now() + 60_000;
    await redis.hset(keys.execution(id), 'wait', JSON.stringify({ 'pause@': due }));

    const taken = await store.take(id, { host: '10.0.0.2', workerId: 'w2', lease: 'lease-x' });
    expect(taken).toMatchObject({ outcome: 'taken', record: { nextStep: 1, results: { first: 'done' }, waitEntries: { 'pause@': due } } });
    expect(await store.checkpoint(id, { nextStep: 2, entries: [['pause', null]], outputs: {} }, 'lease-x')).toBe('continue');
    expect(await redis.hexists(keys.execution(id), 'wait')).toBe(0);
  });

  it('resumes a run checkpointed the earlier way (every result in the field `results`) from that map and the progress together', async () => {
    const definition = { steps: [{ id: 'first' }, { id: 'each' }, { id: 'last' }] as NodeDefinition[] };
    const id = await accept();
    expect((await store.take(id, { host: '10.0.0.1', workerId: 'w1', lease: 'lease-o' })).outcome).toBe('taken');
    // As the earlier checkpoint wrote it, then a block's progress, then a hand-back.
    await redis.hset(keys.execution(id), 'step', '1', 'results', JSON.stringify({ first: { n: 1 } }), 'output', '{"First":"1"}');
    expect(await store.recordProgress(id, { nextStep: 1, entries: [['each[0]', 'a']] }, 'lease-o')).toBe('continue');
    expect(await store.handBack(id, 'lease-o')).toBe('handed-back');

    const taken = await store.take(id, { host: '10.0.0.2', workerId: 'w2', lease: 'lease-n' });
    if (taken.outcome !== 'taken') throw new Error(`not taken: ${taken.outcome}`);
    const resumed = resumePoint(definition, await store.progress(id), taken.record.results);
    expect(resumed).toEqual({ nextStep: 1, results: { first: { n: 1 } }, progress: new Map([['each[0]', 'a']]) });

    // Checkpoints now append to the progress, and leave the earlier map to the takes that follow.
    expect(await store.checkpoint(id, { nextStep: 2, entries: [['each', ['a']]], outputs: { First: '1' } }, 'lease-n')).toBe('continue');
    expect(await store.handBack(id, 'lease-n')).toBe('handed-back');
    const again = await store.take(id, { host: '10.0.0.3', workerId: 'w3', lease: 'lease-m' });
    if (again.outcome !== 'taken') throw new Error(`not taken: ${again.outcome}`);
    expect(resumePoint(definition, await store.progress(id), again.record.results)).toEqual({
      nextStep: 2,
      results: { first: { n: 1 }, each: ['a'] },
      progress: new Map(),
    });
    expect(await store.end(id, { status: 'SUCCESS', lease: 'lease-m', outputs: { First: '1' } })).toMatchObject({ outcome: 'ended' });
    expect(await redis.hexists(keys.execution(id), 'results')).toBe(0);
    expect(await redis.exists(keys.executionProgress(id))).toBe(0);
  });

  it('redrives a run that an earlier version ended ERROR, its results in the field `results`: they become entries of the redrive', async () => {
    const definition = { steps: [{ id: 'first' }, { id: 'each', forEach: '[]', steps: [{ id: 'fetch' }] }, { id: 'last' }] as NodeDefinition[] };
    const id = await accept();
    expect((await store.take(id, { host: '10.0.0.1', workerId: 'w1', lease: 'lease-e' })).outcome).toBe('taken');
    await redis.hset(keys.execution(id), 'step', '1', 'results', JSON.stringify({ first: 'done' }));
    expect(
      await store.recordProgress(
        id,
        {
          nextStep: 1,
          entries: [
            ['each[0]', 'a'],
            ['each[1].fetch', 'half'],
          ],
        },
        'lease-e',
      ),
    ).toBe('continue');
    expect(await store.end(id, { status: 'ERROR', lease: 'lease-e', error: 'each[1].save: down' })).toMatchObject({ outcome: 'ended' });

    const source = must(await store.redriveSource(id));
    expect(redriveStart(undefined, source, definition, 'f'.repeat(32))).toEqual({
      nextStep: 1,
      entries: [
        ['first', '"done"'],
        ['each[0]', '"a"'],
      ],
    });
  });

  it('appends a top-level wait to the progress, read back by the take, and the result of its step after it', async () => {
    const id = await accept();
    expect((await store.take(id, { host: '10.0.0.1', workerId: 'w1', lease: 'lease-p' })).outcome).toBe('taken');
    const due = Date.now() + 60_000;
    expect(await store.suspend(id, 'lease-p', { untilMs: due, waitEntries: [['pause@', due]] })).toBe('suspended');
    expect(await redis.hexists(keys.execution(id), 'wait')).toBe(0);

    const taken = await store.take(id, { host: '10.0.0.2', workerId: 'w2', lease: 'lease-q' });
    expect(taken).toMatchObject({ outcome: 'taken', record: { progressCursor: 'pause@' } });
    expect([...(await store.progress(id))]).toEqual([['pause@', due]]);
    expect(await store.checkpoint(id, { nextStep: 1, entries: [['pause', null]], outputs: {} }, 'lease-q')).toBe('continue');
    expect([...(await store.progress(id))]).toEqual([
      ['pause@', due],
      ['pause', null],
    ]);
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
