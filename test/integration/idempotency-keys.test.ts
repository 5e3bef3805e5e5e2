import { createHash } from 'node:crypto';
import { newExecutionFixture } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// The creation script's side of Idempotency-Key against a real Redis: one execution per key and
// account, whatever else the account's limits say, for as long as its record is kept.
describe('runs started with an Idempotency-Key', () => {
  const retentionSeconds = 300;
  const { keys, redis, store } = storeOnRedis('idempotency', retentionSeconds);

  const entryKey = (account: string, key: string) => keys.idempotencyKey(account, createHash('sha256').update(key).digest('hex'));
  const unlimited = { maxRunningPerAccount: 0 };

  it('starts one execution per key, and answers the same key again with that execution', async () => {
    const first = newExecutionFixture({ account: 'i1' });
    const idempotency = { key: 'order-17', requestDigest: 'digest-a' };
    expect(await store.accept(first, { ...unlimited, idempotency })).toEqual({ outcome: 'accepted' });

    const again = newExecutionFixture({ account: 'i1' });
    expect(await store.accept(again, { ...unlimited, idempotency })).toEqual({ outcome: 'replay', executionId: first.id, sameRequest: true });
    expect(await store.get(again.id)).toBeUndefined();
    expect(await redis.smembers(keys.accountRunning('i1'))).toEqual([first.id]);

    const other = newExecutionFixture({ account: 'i1' });
    expect(await store.accept(other, { ...unlimited, idempotency: { key: 'order-17', requestDigest: 'digest-b' } })).toEqual({
      outcome: 'replay',
      executionId: first.id,
      sameRequest: false,
    });
    expect(await store.get(other.id)).toBeUndefined();
  });

  it('keeps the key exactly as long as its record: for ever while it runs, then the retention', async () => {
    const execution = newExecutionFixture({ account: 'i8' });
    expect(await store.accept(execution, { ...unlimited, idempotency: { key: 'long-run', requestDigest: 'd' } })).toEqual({ outcome: 'accepted' });
    // However long it waits for a worker, a retry finds it.
    expect(await redis.pttl(entryKey('i8', 'long-run'))).toBe(-1);
    expect(await redis.pttl(keys.execution(execution.id))).toBe(-1);
    expect(await store.get(execution.id)).not.toHaveProperty('idempotency');

    expect((await store.end(execution.id, { status: 'SUCCESS' })).outcome).toBe('ended');
    const entryTtl = await redis.ttl(entryKey('i8', 'long-run'));
    expect(entryTtl).toBe(await redis.ttl(keys.execution(execution.id)));
    expect(entryTtl).toBeGreaterThan(retentionSeconds - 5);
    expect(await store.accept(newExecutionFixture({ account: 'i8' }), { ...unlimited, idempotency: { key: 'long-run', requestDigest: 'd' } })).toMatchObject({
      outcome: 'replay',
      executionId: execution.id,
    });
    // A run without a key ends as before.
    const plain = newExecutionFixture({ account: 'i8' });
    await store.accept(plain, unlimited);
    expect((await store.end(plain.id, { status: 'SUCCESS' })).outcome).toBe('ended');
  });

  it('keeps accounts apart, and leaves runs without a key alone', async () => {
    const idempotency = { key: 'shared-key', requestDigest: 'digest' };
    expect(await store.accept(newExecutionFixture({ account: 'i2' }), { ...unlimited, idempotency })).toEqual({ outcome: 'accepted' });
    expect(await store.accept(newExecutionFixture({ account: 'i3' }), { ...unlimited, idempotency })).toEqual({ outcome: 'accepted' });
    expect(await store.accept(newExecutionFixture({ account: 'i2' }), unlimited)).toEqual({ outcome: 'accepted' });
    expect(await store.accept(newExecutionFixture({ account: 'i2' }), unlimited)).toEqual({ outcome: 'accepted' });
    expect(await redis.scard(keys.accountRunning('i2'))).toBe(3);
  });

  it('treats a creation sent again after a lost reply as created, not as its own replay', async () => {
    const execution = newExecutionFixture({ account: 'i4' });
    const options = { ...unlimited, idempotency: { key: 'resent', requestDigest: 'digest' } };
    expect(await store.accept(execution, options)).toEqual({ outcome: 'accepted' });
    expect(await store.accept(execution, options)).toEqual({ outcome: 'accepted' });
  });

  it('answers a replay even at the quota, and remembers no key for a refused run', async () => {
    const limited = { maxRunningPerAccount: 1 };
    const first = newExecutionFixture({ account: 'i5' });
    expect(await store.accept(first, { ...limited, idempotency: { key: 'k1', requestDigest: 'd' } })).toEqual({ outcome: 'accepted' });
    expect(await store.accept(newExecutionFixture({ account: 'i5' }), { ...limited, idempotency: { key: 'k1', requestDigest: 'd' } })).toMatchObject({
      outcome: 'replay',
      executionId: first.id,
    });
    const refused = newExecutionFixture({ account: 'i5' });
    expect(await store.accept(refused, { ...limited, idempotency: { key: 'k2', requestDigest: 'd' } })).toEqual({ outcome: 'quota-exceeded' });
    expect(await redis.exists(entryKey('i5', 'k2'))).toBe(0);

    await store.end(first.id, { status: 'SUCCESS' });
    const retried = newExecutionFixture({ account: 'i5' });
    expect(await store.accept(retried, { ...limited, idempotency: { key: 'k2', requestDigest: 'd' } })).toEqual({ outcome: 'accepted' });
  });

  it("counts the key's entry against the account's budget of stored bytes", async () => {
    const plain = newExecutionFixture({ account: 'i6', inputs: { Text: 'x'.repeat(1000) } });
    const keyed = newExecutionFixture({ account: 'i7', inputs: { Text: 'x'.repeat(1000) }, starttime: plain.starttime });
    await store.accept(plain, unlimited);
    await store.accept(keyed, { ...unlimited, idempotency: { key: 'k'.repeat(200), requestDigest: 'd'.repeat(64) } });
    const extra = (await store.storedBytes('i7', plain.starttime)) - (await store.storedBytes('i6', plain.starttime));
    // The entry's key and its value (the execution id, a space and the digest), and the value of
    // the record's field that names the entry (values are counted, not field names).
    expect(extra).toBe(2 * entryKey('i7', 'k'.repeat(200)).length + 32 + 1 + 64);
  });
});
