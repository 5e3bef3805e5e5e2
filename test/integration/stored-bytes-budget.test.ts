import { newExecutionFixture } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// Each account's budget of stored bytes against a real Redis: what creation and ends count, when
// creation is refused, and how the previous window fades out. Times are made up, so that the
// windows (as long as the retention, 300 s) can be crossed without waiting.
describe("an account's budget of stored bytes", () => {
  const windowMs = 300_000;
  const windowIndex = 6_000_000;
  const windowStart = windowIndex * windowMs;
  const { keys, redis, store } = storeOnRedis('stored', windowMs / 1000);

  const stored = async (account: string, index = windowIndex) => Number((await redis.get(keys.accountStoredBytes(account, index))) ?? 0);
  const execution = (account: string, starttime: number, size = 10_000) =>
    newExecutionFixture({ account, starttime, deadline: starttime + 60_000, inputs: { Text: 'x'.repeat(size) } });

  it('counts the bytes each record stores, refuses past the budget and says when there will be room', async () => {
    expect(await store.accept(execution('a1', windowStart), { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    const size = await stored('a1');
    expect(size).toBeGreaterThan(10_000);
    expect(size).toBeLessThan(10_400);
    const ttl = await redis.pttl(keys.accountStoredBytes('a1', windowIndex));
    expect(ttl).toBeGreaterThan(windowMs);
    expect(ttl).toBeLessThanOrEqual(2 * windowMs);

    const budget = { maxRunningPerAccount: 0, maxStoredBytesPerAccount: 3 * size - 1 };
    expect(await store.accept(execution('a1', windowStart + 1_000), budget)).toEqual({ outcome: 'accepted' });
    const refused = await store.accept(execution('a1', windowStart + 1_000), budget);
    // This window holds it all: room comes once the next window is a little way in.
    expect(refused).toMatchObject({ outcome: 'budget-exceeded' });
    expect(refused.outcome === 'budget-exceeded' && refused.retryAfterSeconds).toBe(300);
    expect(await stored('a1')).toBe(2 * size);
    expect(await redis.scard(keys.accountRunning('a1'))).toBe(2);

    // At the start of the next window the previous one still counts whole; half-way through, half.
    const next = windowStart + windowMs;
    const early = await store.accept(execution('a1', next), budget);
    expect(early).toMatchObject({ outcome: 'budget-exceeded' });
    expect(early.outcome === 'budget-exceeded' && early.retryAfterSeconds).toBe(1);
    expect(await store.accept(execution('a1', next + windowMs / 2), budget)).toEqual({ outcome: 'accepted' });
    expect(await stored('a1', windowIndex + 1)).toBe(size);
  });

  it('lets the previous window fade out over this one, and says when there will be room', async () => {
    const before = windowStart - 100_000;
    for (let i = 0; i < 2; i += 1) await store.accept(execution('a5', before), { maxRunningPerAccount: 0 });
    const size = (await stored('a5', windowIndex - 1)) / 2;
    const budget = { maxRunningPerAccount: 0, maxStoredBytesPerAccount: 2 * size };
    // A quarter in, three quarters of the previous 2 × size still count: room in 75 s more.
    const refused = await store.accept(execution('a5', windowStart + windowMs / 4), budget);
    expect(refused).toEqual({ outcome: 'budget-exceeded', retryAfterSeconds: 75 });
    // What the metrics show counts the same way.
    expect(await store.storedBytes('a5', windowStart + windowMs / 4)).toBe(Math.round(1.5 * size));
    expect(await store.accept(execution('a5', windowStart + windowMs / 2), budget)).toEqual({ outcome: 'accepted' });
  });

  it('refuses for good a record larger than the whole budget, counting nothing', async () => {
    const larger = await store.accept(execution('a6', windowStart, 2_000), { maxRunningPerAccount: 0, maxStoredBytesPerAccount: 1_000 });
    expect(larger).toEqual({ outcome: 'larger-than-budget' });
    expect(await stored('a6')).toBe(0);
    expect(await redis.scard(keys.accountRunning('a6'))).toBe(0);
  });

  it('counts the outputs a record keeps when it ends', async () => {
    const started = execution('a2', windowStart + 5_000, 10);
    await store.accept(started, { maxRunningPerAccount: 0 });
    const before = await stored('a2');
    const outputs = { Result: 'y'.repeat(5_000) };
    expect(await store.end(started.id, { status: 'SUCCESS', outputs, account: 'a2', now: windowStart + 6_000 })).toMatchObject({ outcome: 'ended' });
    expect(await stored('a2')).toBe(before + JSON.stringify(outputs).length);
    // An end that does not apply counts nothing.
    expect(await store.end(started.id, { status: 'ERROR', outputs, account: 'a2', now: windowStart + 7_000 })).toMatchObject({ outcome: 'not-running' });
    expect(await stored('a2')).toBe(before + JSON.stringify(outputs).length);
  });

  it('counts the checkpointed outputs that an end without outputs of its own keeps', async () => {
    const started = execution('a7', windowStart + 5_000, 10);
    await store.accept(started, { maxRunningPerAccount: 0 });
    const before = await stored('a7');
    await store.take(started.id, { host: '10.0.0.1', workerId: 'worker-a', lease: 'lease-a' });
    const outputs = { Partial: 'z'.repeat(3_000) };
    expect(await store.checkpoint(started.id, { nextStep: 1, entries: [], outputs }, 'lease-a')).toBe('continue');
    expect(await stored('a7')).toBe(before);
    // Terminated from the API, which has no outputs to give: the checkpoint's are kept, and counted.
    expect(await store.end(started.id, { status: 'TERMINATED_MANUALLY', account: 'a7', now: windowStart + 6_000 })).toMatchObject({ outcome: 'ended' });
    expect(await stored('a7')).toBe(before + JSON.stringify(outputs).length);
  });

  it('keeps accounts apart, and without a budget counts but never refuses', async () => {
    const tight = { maxRunningPerAccount: 0, maxStoredBytesPerAccount: 15_000 };
    expect(await store.accept(execution('a3', windowStart), tight)).toEqual({ outcome: 'accepted' });
    expect(await store.accept(execution('a3', windowStart), tight)).toMatchObject({ outcome: 'budget-exceeded' });
    expect(await store.accept(execution('a4', windowStart), tight)).toEqual({ outcome: 'accepted' });
    for (let i = 0; i < 3; i += 1) {
      expect(await store.accept(execution('a3', windowStart), { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    }
    expect(await stored('a3')).toBeGreaterThan(40_000);
  });
});
