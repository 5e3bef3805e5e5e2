import { describe, expect, it } from 'vitest';
import { createTurnBatcher } from './turn-batches.ts';

describe('turn batches', () => {
  it('sends what is asked in one turn in one call, answering each its own reply, and a later turn in another', async () => {
    const calls: number[][] = [];
    const double = createTurnBatcher(async (items: number[]) => {
      calls.push(items);
      return items.map((item) => item * 2);
    });
    expect(await Promise.all([double(1), double(2), double(3)])).toEqual([2, 4, 6]);
    expect(await double(4)).toBe(8);
    expect(calls).toEqual([[1, 2, 3], [4]]);
  });

  it('splits a large turn into calls of at most 500, in order', async () => {
    const sizes: number[] = [];
    const echo = createTurnBatcher(async (items: number[]) => {
      sizes.push(items.length);
      return items;
    });
    const all = Array.from({ length: 1_200 }, (_, index) => index);
    expect(await Promise.all(all.map((item) => echo(item)))).toEqual(all);
    expect(sizes).toEqual([500, 500, 200]);
  });

  it('fails every item of a call that fails, whether it rejects or throws', async () => {
    const rejecting = createTurnBatcher<number, number>(() => Promise.reject(new Error('Redis is gone')));
    const throwing = createTurnBatcher<number, number>(() => {
      throw new Error('bad arguments');
    });
    const results = await Promise.allSettled([rejecting(1), rejecting(2), throwing(3)]);
    expect(results.map((result) => (result.status === 'rejected' ? (result.reason as Error).message : 'fulfilled'))).toEqual([
      'Redis is gone',
      'Redis is gone',
      'bad arguments',
    ]);
  });
});
