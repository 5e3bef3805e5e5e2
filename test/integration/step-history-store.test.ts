import type { StepEvent } from '@ces/store';
import { newExecutionFixture } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// The step history against a real Redis: appended by the checkpoint, the progress inside a block
// and the end, under the same checks; bounded to the first and last events with the rest counted;
// expiring with the record.
describe('step history in the store', () => {
  let counter = 0;
  const retentionSeconds = 300;
  const { keys, redis, store } = storeOnRedis('step-history', retentionSeconds, { first: 3, last: 4 });

  async function taken(lease: string): Promise<string> {
    counter += 1;
    const execution = newExecutionFixture({ id: `${counter.toString(16).padStart(4, '0')}${'ab'.repeat(14)}`, choreo: '/Test/CountedLoop' });
    expect(await store.accept(execution, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    expect(await store.take(execution.id, { host: '10.0.0.1', workerId: 'w', lease })).toMatchObject({ outcome: 'taken' });
    return execution.id;
  }

  const event = (n: number, extra: Partial<StepEvent> = {}): StepEvent => ({
    id: 'post',
    address: `each[${n}].post`,
    iteration: n,
    attempt: 1,
    start: 1_000 + n,
    end: 1_001 + n,
    durationMs: 1.2345678,
    host: '10.0.0.1',
    outcome: 'succeeded',
    ...extra,
  });
  const addresses = (events: readonly StepEvent[]) => events.map((e) => e.address);

  it('appends with each write, in order, and only under the current lease', async () => {
    const id = await taken('lease-a');
    expect(await store.stepHistory(id)).toEqual({ events: [] });
    expect(await store.recordProgress(id, { nextStep: 0, entries: [['each[0]', 0]] }, 'lease-a', [event(0)])).toBe('continue');
    expect(await store.checkpoint(id, { nextStep: 1, entries: [], outputs: {} }, 'lease-a', [event(1), event(2, { outcome: 'failed', error: 'boom' })])).toBe(
      'continue',
    );
    // A worker whose lease is void writes nothing, its events neither.
    expect(await store.checkpoint(id, { nextStep: 2, entries: [], outputs: {} }, 'lease-b', [event(9)])).toBe('superseded');
    const history = await store.stepHistory(id);
    expect(addresses(history.events)).toEqual(['each[0].post', 'each[1].post', 'each[2].post']);
    expect(history.events[0]).toEqual({ ...event(0), durationMs: 1.235 });
    expect(history.events[2]).toMatchObject({ outcome: 'failed', error: 'boom' });
    expect(history.dropped).toBeUndefined();

    // The end appends its own and gives the history the record's expiry.
    expect(await store.end(id, { status: 'SUCCESS', lease: 'lease-a', stepEvents: [event(3)] })).toEqual({ outcome: 'ended', status: 'SUCCESS' });
    expect(addresses((await store.stepHistory(id)).events)).toHaveLength(4);
    const ttl = await redis.ttl(keys.executionSteps(id));
    expect(ttl).toBeGreaterThan(retentionSeconds - 10);
    expect(ttl).toBeLessThanOrEqual(retentionSeconds);
    expect(Math.abs(ttl - (await redis.ttl(keys.execution(id))))).toBeLessThanOrEqual(1);
  });

  it('keeps the first and the last events past its bound, counting those dropped between', async () => {
    const id = await taken('lease-a');
    // One at a time, then in batches larger than the bound: 0-2 kept, then the last four.
    for (let n = 0; n < 9; n++) await store.recordProgress(id, { nextStep: 0, entries: [[`each[${n}]`, n]] }, 'lease-a', [event(n)]);
    let history = await store.stepHistory(id);
    expect(addresses(history.events)).toEqual(['each[0].post', 'each[1].post', 'each[2].post', ...[5, 6, 7, 8].map((n) => `each[${n}].post`)]);
    expect(history.dropped).toEqual({ count: 2, after: 3 });

    const batch = Array.from({ length: 10 }, (_, i) => event(9 + i));
    await store.checkpoint(id, { nextStep: 1, entries: [], outputs: {} }, 'lease-a', batch);
    history = await store.stepHistory(id);
    expect(addresses(history.events)).toEqual(['each[0].post', 'each[1].post', 'each[2].post', ...[15, 16, 17, 18].map((n) => `each[${n}].post`)]);
    expect(history.dropped).toEqual({ count: 12, after: 3 });
    // The list never holds more than the bound and its marker.
    expect(await redis.llen(keys.executionSteps(id))).toBe(8);
  });

  it('names the host and the start once per take, and keeps them across the events it drops', async () => {
    const id = await taken('lease-a');
    const progress = (n: number, host: string) => store.recordProgress(id, { nextStep: 0, entries: [[`each[${n}]`, n]] }, 'lease-a', [event(n, { host })]);
    for (let n = 0; n < 3; n++) expect(await progress(n, '10.0.0.1')).toBe('continue');
    // A later host (as after a take elsewhere): named on its first event, which is dropped.
    for (let n = 3; n < 10; n++) expect(await progress(n, '10.0.0.2')).toBe('continue');
    const stored = (await redis.lrange(keys.executionSteps(id), 0, -1)).map((json) => JSON.parse(json) as unknown);
    expect(stored.map((entry) => (Array.isArray(entry) ? [entry[4], entry[7]] : entry))).toEqual([
      [1_000, '10.0.0.1'],
      [1, 0],
      [1, 0],
      // Events 3 to 5 dropped: the start of 5 relative to 2, and the host 3 named.
      { dropped: 3, start: 3, host: '10.0.0.2' },
      [1, 0],
      [1, 0],
      [1, 0],
      [1, 0],
    ]);
    const history = await store.stepHistory(id);
    expect(history.events.map((e) => `${e.address} ${e.host}`)).toEqual([
      'each[0].post 10.0.0.1',
      'each[1].post 10.0.0.1',
      'each[2].post 10.0.0.1',
      ...[6, 7, 8, 9].map((n) => `each[${n}].post 10.0.0.2`),
    ]);
    expect(history.events[3]).toEqual({ ...event(6, { host: '10.0.0.2' }), durationMs: 1.235 });
    expect(history.dropped).toEqual({ count: 3, after: 3 });
  });

  it('takes a first batch already past the bound', async () => {
    const id = await taken('lease-a');
    const batch = Array.from({ length: 20 }, (_, i) => event(i));
    await store.end(id, { status: 'ERROR', error: 'x', lease: 'lease-a', stepEvents: batch });
    const history = await store.stepHistory(id);
    expect(addresses(history.events)).toEqual(['each[0].post', 'each[1].post', 'each[2].post', ...[16, 17, 18, 19].map((n) => `each[${n}].post`)]);
    expect(history.dropped).toEqual({ count: 13, after: 3 });
  });

  it('keeps the history of a run that wrote none before its end in its record, expiring with it', async () => {
    const id = await taken('lease-a');
    await store.end(id, { status: 'SUCCESS', lease: 'lease-a', stepEvents: [event(0), event(1, { attempt: 2, outcome: 'failed', error: 'no' })] });
    expect(await redis.exists(keys.executionSteps(id))).toBe(0);
    expect(await redis.hexists(keys.execution(id), 'history')).toBe(1);
    const history = await store.stepHistory(id);
    expect(history.events).toEqual([
      { ...event(0), durationMs: 1.235 },
      { ...event(1), attempt: 2, outcome: 'failed', error: 'no', durationMs: 1.235 },
    ]);
    expect(history.dropped).toBeUndefined();
  });

  it('shortens a long error message', async () => {
    const id = await taken('lease-a');
    await store.checkpoint(id, { nextStep: 1, entries: [], outputs: {} }, 'lease-a', [event(0, { outcome: 'failed', error: 'e'.repeat(5000) })]);
    const [stored] = (await store.stepHistory(id)).events;
    expect(stored?.error).toHaveLength(1001);
  });
});
