import { newExecutionFixture } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// A redrive's acceptance against a real Redis: the failed run keeps what it completed, and the
// redrive copies what it is given of it in the one script that checks and names both records.
describe('execution redrive in the store', () => {
  let counter = 0;
  const { keys, redis, store } = storeOnRedis('redrive');
  const nextId = () => {
    counter += 1;
    return `${counter.toString(16).padStart(4, '0')}${'ab'.repeat(14)}`;
  };

  async function failed(status: 'ERROR' | 'TERMINATED_LIMIT' | 'SUCCESS' = 'ERROR'): Promise<string> {
    const execution = newExecutionFixture({ id: nextId(), choreo: '/Test/Pages' });
    await store.accept(execution, { maxRunningPerAccount: 0 });
    await store.take(execution.id, { host: '10.0.0.1', workerId: 'w', lease: 'l' });
    await store.checkpoint(execution.id, { nextStep: 1, entries: [['first', 'one']], outputs: {} }, 'l');
    await store.recordProgress(
      execution.id,
      {
        nextStep: 1,
        entries: [
          ['pages[0]', 'p0'],
          ['pages[1].fetch', 'half'],
        ],
      },
      'l',
    );
    await store.end(execution.id, { status, lease: 'l', error: 'pages[1].save: down' });
    return execution.id;
  }

  const redriveOf = (
    of: string,
    entries: [string, string][] = [
      ['first', '"one"'],
      ['pages[0]', '"p0"'],
    ],
  ) => {
    const execution = { ...newExecutionFixture({ id: nextId(), choreo: '/Test/Pages' }), redriveOf: of };
    return { execution, accepting: store.accept(execution, { maxRunningPerAccount: 0, redrive: { nextStep: 1, entries } }) };
  };

  it('keeps a failed run its results and progress, expiring with its record; a successful one keeps neither', async () => {
    const id = await failed();
    const source = await store.redriveSource(id);
    expect(source?.record).toMatchObject({ status: 'ERROR', nextStep: 1, results: {} });
    expect(new Map(source?.progress)).toEqual(
      new Map([
        ['first', '"one"'],
        ['pages[0]', '"p0"'],
        ['pages[1].fetch', '"half"'],
      ]),
    );
    expect(await redis.ttl(keys.executionProgress(id))).toBeGreaterThan(0);
    const succeeded = await failed('SUCCESS');
    expect(await redis.exists(keys.executionProgress(succeeded))).toBe(0);
    expect(await redis.hexists(keys.execution(succeeded), 'results')).toBe(0);
  });

  it('accepts a redrive that starts from the entries given, and names each record in the other', async () => {
    const id = await failed('TERMINATED_LIMIT');
    const { execution, accepting } = redriveOf(id);
    expect(await accepting).toEqual({ outcome: 'accepted' });
    expect(await store.get(execution.id)).toMatchObject({
      status: 'RUNNING',
      nextStep: 1,
      results: {},
      progressCursor: 'pages[0]',
      redriveOf: id,
    });
    expect(await redis.hexists(keys.execution(execution.id), 'results')).toBe(0);
    expect(await store.progress(execution.id)).toEqual(
      new Map([
        ['first', 'one'],
        ['pages[0]', 'p0'],
      ]),
    );
    expect(await store.summary(id, { withOutputs: false })).toMatchObject({ status: 'TERMINATED_LIMIT', redrivenBy: execution.id });
  });

  it('refuses a run that did not fail, and a second redrive while the first runs; allows it once that one ended', async () => {
    const succeeded = await failed('SUCCESS');
    expect(await redriveOf(succeeded).accepting).toEqual({ outcome: 'not-redrivable', status: 'SUCCESS' });
    expect(await redriveOf('f'.repeat(32)).accepting).toEqual({ outcome: 'not-redrivable', status: '' });

    const id = await failed();
    const first = redriveOf(id);
    await first.accepting;
    const second = redriveOf(id);
    expect(await second.accepting).toEqual({ outcome: 'redrive-running', executionId: first.execution.id });
    expect(await redis.exists(keys.execution(second.execution.id))).toBe(0);

    await store.end(first.execution.id, { status: 'ERROR', error: 'again' });
    const third = redriveOf(id);
    expect(await third.accepting).toEqual({ outcome: 'accepted' });
    expect(await store.summary(id, { withOutputs: false })).toMatchObject({ status: 'ERROR', redrivenBy: third.execution.id });
  });

  it('copies thousands of entries in one acceptance', async () => {
    const id = await failed();
    const entries = Array.from({ length: 5_000 }, (_, index): [string, string] => [`pages[${index}]`, String(index)]);
    const { execution, accepting } = redriveOf(id, entries);
    expect(await accepting).toEqual({ outcome: 'accepted' });
    expect(await redis.hlen(keys.executionProgress(execution.id))).toBe(5_000);
  });
});
