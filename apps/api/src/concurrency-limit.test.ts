import { describe, expect, it } from 'vitest';
import { createConcurrencyLimit } from './concurrency-limit.ts';

describe('createConcurrencyLimit', () => {
  it('runs at most its limit at once, in order of arrival, through failures', async () => {
    const limit = createConcurrencyLimit(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const gates = Array.from({ length: 6 }, () => Promise.withResolvers<void>());
    const tasks = gates.map((gate, index) =>
      limit(async () => {
        started.push(index);
        running += 1;
        most = Math.max(most, running);
        await gate.promise;
        running -= 1;
        if (index === 1) throw new Error('task 1 failed');
        return index;
      }),
    );
    const settled = Promise.allSettled(tasks);
    for (const gate of gates) {
      await new Promise((resolve) => setImmediate(resolve));
      gate.resolve();
    }
    const results = await settled;
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    // The limit is whole again afterwards.
    let again = 0;
    await Promise.all([limit(async () => (again += 1)), limit(async () => (again += 1))]);
    expect(again).toBe(2);
  });
});
