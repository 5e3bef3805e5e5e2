import { newExecutionFixture } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// Progress inside a block against a real Redis: appended entry by entry under the lease that took
// the execution, answered like a checkpoint, and gone once the block is over or the run ends.
describe('execution progress inside a block', () => {
  let counter = 0;
  const { keys, redis, store } = storeOnRedis('progress');

  async function taken(lease: string): Promise<string> {
    counter += 1;
    const execution = newExecutionFixture({ id: `${counter.toString(16).padStart(4, '0')}${'ef'.repeat(14)}`, choreo: '/Test/CountedLoop' });
    expect(await store.accept(execution, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    expect(await store.take(execution.id, { host: '10.0.0.1', workerId: 'w', lease })).toMatchObject({ outcome: 'taken' });
    return execution.id;
  }

  it('appends only the new entries, sets the cursor, and reads them back by address', async () => {
    const id = await taken('lease-a');
    expect(await store.progress(id)).toEqual(new Map());
    expect(await store.recordProgress(id, { nextStep: 0, entries: [['each[0]', { n: 0 }]] }, 'lease-a')).toBe('continue');
    expect(
      await store.recordProgress(
        id,
        {
          nextStep: 0,
          entries: [
            ['each[1].call', { n: 1 }],
            ['each[1]', null],
          ],
        },
        'lease-a',
      ),
    ).toBe('continue');
    expect(await store.progress(id)).toEqual(
      new Map<string, unknown>([
        ['each[0]', { n: 0 }],
        ['each[1].call', { n: 1 }],
        ['each[1]', null],
      ]),
    );
    expect(await redis.hget(keys.execution(id), 'cursor')).toBe('each[1]');
    // The record's checkpoint is untouched: the run is still at its block.
    expect(await store.get(id)).toMatchObject({ nextStep: 0, status: 'RUNNING', progressCursor: 'each[1]' });
  });

  it('refuses an earlier take and answers a termination request, like a checkpoint', async () => {
    const id = await taken('lease-a');
    await store.take(id, { host: '10.0.0.2', workerId: 'w2', lease: 'lease-b' });
    expect(await store.recordProgress(id, { nextStep: 0, entries: [['each[0]', 1]] }, 'lease-a')).toBe('superseded');
    expect(await store.progress(id)).toEqual(new Map());
    expect(await store.requestTermination(id)).toEqual({ status: 'RUNNING', ended: false });
    expect(await store.recordProgress(id, { nextStep: 0, entries: [['each[0]', 1]] }, 'lease-b')).toBe('termination-requested');
    expect(await store.end(id, { status: 'TERMINATED_MANUALLY', lease: 'lease-b' })).toEqual({ outcome: 'ended', status: 'TERMINATED_MANUALLY' });
    expect(await store.recordProgress(id, { nextStep: 0, entries: [['each[1]', 1]] }, 'lease-b')).toBe('not-running');
  });

  it('is appended to by the checkpoint after the block, never rewritten, and deleted by the end', async () => {
    const id = await taken('lease-a');
    await store.recordProgress(id, { nextStep: 0, entries: [['each[0]', 1]] }, 'lease-a');
    expect(await store.checkpoint(id, { nextStep: 1, entries: [['each', [1]]], outputs: { Each: '[1]' } }, 'lease-a')).toBe('continue');
    expect(await store.progress(id)).toEqual(
      new Map<string, unknown>([
        ['each[0]', 1],
        ['each', [1]],
      ]),
    );
    expect(await redis.hmget(keys.execution(id), 'cursor', 'step', 'output', 'results')).toEqual(['each', '1', '{"Each":"[1]"}', null]);
    // What a completed block recorded goes with the checkpoint that appends its result.
    await store.recordProgress(id, { nextStep: 1, entries: [['pages[0]', 'p0']] }, 'lease-a');
    const superseded = Array.from({ length: 2500 }, (_, index) => `pages[${index}]`);
    expect(await store.checkpoint(id, { nextStep: 2, entries: [['pages', ['p0']]], superseded, outputs: {} }, 'lease-a')).toBe('continue');
    expect(await store.progress(id)).toEqual(
      new Map<string, unknown>([
        ['each[0]', 1],
        ['each', [1]],
        ['pages', ['p0']],
      ]),
    );
    // A checkpoint of no new result (a run flagged before its first step) writes no entry.
    expect(await store.checkpoint(id, { nextStep: 1, entries: [], outputs: {} }, 'lease-a')).toBe('continue');
    expect((await store.progress(id)).size).toBe(3);

    await store.recordProgress(id, { nextStep: 1, entries: [['pages[0]', { result: 1, item: 'u2', done: false }]] }, 'lease-a');
    expect(await store.end(id, { status: 'SUCCESS', lease: 'lease-a', nextStep: 2 })).toEqual({ outcome: 'ended', status: 'SUCCESS' });
    expect(await redis.exists(keys.executionProgress(id))).toBe(0);
    expect(await redis.hexists(keys.execution(id), 'cursor')).toBe(0);
  });
});
