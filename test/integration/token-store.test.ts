import { randomBytes } from 'node:crypto';
import { createSecretCipher, createTokenStore } from '@ces/store';
import { waitFor } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// The token store's scripts against a real Redis: values sealed at rest, expiry, validity, locks,
// accounts kept apart, and re-encryption after a key rotation.
describe('token store', () => {
  const { keys, redis } = storeOnRedis('tokens');
  const key = randomBytes(32);
  const tokens = createTokenStore({ redis, keys, cipher: createSecretCipher({ current: key }) });

  it('stores a token sealed, reads it back valid and unlocked, and replaces it', async () => {
    const acme = tokens.forAccount('acme');
    await acme.store('github', 'gho_first-secret-value', 0);
    expect(await acme.get('github')).toEqual({ value: 'gho_first-secret-value', valid: true, locked: false });
    const raw = await redis.hgetall(keys.accountToken('acme', 'github'));
    expect(JSON.stringify(raw)).not.toContain('gho_first');
    expect(await redis.pttl(keys.accountToken('acme', 'github'))).toBe(-1);
    await acme.store('github', 'gho_second', 0);
    expect((await acme.get('github'))?.value).toBe('gho_second');
  });

  it('keeps each account to its own tokens', async () => {
    await tokens.forAccount('acme').store('shared-name', 'acme-value', 0);
    expect(await tokens.forAccount('other').get('shared-name')).toBeUndefined();
    expect(await tokens.forAccount('other').lock('shared-name')).toEqual({ outcome: 'absent' });
    expect(await tokens.forAccount('other').delete('shared-name')).toBe(false);
    expect(await tokens.forAccount('other').setValid('shared-name', false)).toBe(false);
    expect(await tokens.forAccount('acme').get('shared-name')).toEqual({ value: 'acme-value', valid: true, locked: false });
    // A sealed value copied into another account's key does not open there.
    await redis.copy(keys.accountToken('acme', 'shared-name'), keys.accountToken('other', 'shared-name'));
    await expect(tokens.forAccount('other').get('shared-name')).rejects.toThrow(/cannot be read/);
  });

  it('forgets a token once its lifetime is over', async () => {
    const acme = tokens.forAccount('acme');
    await acme.store('short', 'short-lived', 1);
    const ttl = await redis.pttl(keys.accountToken('acme', 'short'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1000);
    await waitFor(async () => (await acme.get('short')) === undefined, { timeoutMs: 5000, what: 'the token to expire' });
    // Stored again without a lifetime, it no longer expires.
    await acme.store('short', 'now-kept', 1);
    await acme.store('short', 'now-kept', 0);
    expect(await redis.pttl(keys.accountToken('acme', 'short'))).toBe(-1);
  });

  it('marks a token invalid and valid again', async () => {
    const acme = tokens.forAccount('acme');
    await acme.store('v', 'value', 0);
    expect(await acme.setValid('v', false)).toBe(true);
    expect((await acme.get('v'))?.valid).toBe(false);
    expect(await acme.setValid('v', true)).toBe(true);
    expect((await acme.get('v'))?.valid).toBe(true);
    // Storing makes it valid again.
    await acme.setValid('v', false);
    await acme.store('v', 'renewed', 0);
    expect((await acme.get('v'))?.valid).toBe(true);
  });

  it('gives the lock to one caller at a time, until the token is stored again or the lock lapses', async () => {
    const acme = tokens.forAccount('acme');
    await acme.store('locked', 'lock-me', 0);
    const attempts = await Promise.all(Array.from({ length: 10 }, () => acme.lock('locked')));
    expect(attempts.filter((attempt) => attempt.outcome === 'taken')).toHaveLength(1);
    expect(attempts.filter((attempt) => attempt.outcome === 'held')).toHaveLength(9);
    expect(attempts.find((attempt) => attempt.outcome === 'taken')).toEqual({ outcome: 'taken', token: { value: 'lock-me', valid: true, locked: true } });
    expect((await acme.get('locked'))?.locked).toBe(true);
    await acme.store('locked', 'refreshed', 0);
    expect((await acme.get('locked'))?.locked).toBe(false);
    expect((await acme.lock('locked')).outcome).toBe('taken');

    const shortLocks = createTokenStore({ redis, keys, cipher: createSecretCipher({ current: key }), lockMs: 200 }).forAccount('acme');
    await shortLocks.store('lapsing', 'x', 0);
    expect((await shortLocks.lock('lapsing')).outcome).toBe('taken');
    expect((await shortLocks.lock('lapsing')).outcome).toBe('held');
    await waitFor(async () => (await shortLocks.lock('lapsing')).outcome === 'taken', { timeoutMs: 5000, what: 'the lock to lapse' });
  });

  it('deletes a token', async () => {
    const acme = tokens.forAccount('acme');
    await acme.store('gone', 'x', 0);
    expect(await acme.delete('gone')).toBe(true);
    expect(await acme.get('gone')).toBeUndefined();
    expect(await acme.delete('gone')).toBe(false);
  });

  it('seals every value again under a new key, keeping expiry and what was stored meanwhile', async () => {
    const before = tokens.forAccount('rotating');
    await before.store('a', 'value-a', 0);
    await before.store('b', 'value-b', 600);
    const newKey = randomBytes(32);
    const rotated = createTokenStore({ redis, keys, cipher: createSecretCipher({ current: newKey, previous: [key] }) });
    expect((await rotated.forAccount('rotating').get('a'))?.value).toBe('value-a');
    expect(await rotated.reseal('rotating')).toBe(2);
    expect(await rotated.reseal('rotating')).toBe(0);
    const onlyNew = createTokenStore({ redis, keys, cipher: createSecretCipher({ current: newKey }) }).forAccount('rotating');
    expect((await onlyNew.get('a'))?.value).toBe('value-a');
    expect((await onlyNew.get('b'))?.value).toBe('value-b');
    expect(await redis.pttl(keys.accountToken('rotating', 'b'))).toBeGreaterThan(0);
  });
});
