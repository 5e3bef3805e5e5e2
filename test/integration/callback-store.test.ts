import { randomBytes } from 'node:crypto';
import type { CallbackRequest } from '@ces/language';
import { createCallbackStore, MAX_CALLBACK_REQUESTS } from '@ces/store';
import { waitFor } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// Callback URLs against a real Redis: unguessable tokens per account and id, requests kept for
// their account only, bounded in number, gone when the callback expires.
describe('callback store', () => {
  const { keys, redis } = storeOnRedis('callbacks');
  const urlKey = randomBytes(32);
  const callbacks = createCallbackStore({ redis, keys, urlKey });
  const request = (query: Record<string, string>, body = ''): CallbackRequest => ({
    method: 'GET',
    query,
    headers: {},
    body,
    receivedAt: new Date().toISOString(),
  });

  it('gives each account and id its own token, the same one again for the same id', async () => {
    const first = await callbacks.forAccount('acme').register({ id: 'orders' });
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await callbacks.forAccount('acme').register({ id: 'orders' })).token).toBe(first.token);
    expect((await callbacks.forAccount('other').register({ id: 'orders' })).token).not.toBe(first.token);
    // Another key (another deployment, or after a rotation) makes other tokens.
    expect(
      (
        await createCallbackStore({ redis, keys, urlKey: randomBytes(32) })
          .forAccount('acme')
          .register({ id: 'orders' })
      ).token,
    ).not.toBe(first.token);
    const random = await callbacks.forAccount('acme').register({});
    expect(random.id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('records requests for the account that registered the callback only, the latest kept', async () => {
    const { id, token } = await callbacks.forAccount('acme').register({ forwardingUrl: 'https://example.com/next' });
    for (let i = 0; i < MAX_CALLBACK_REQUESTS + 5; i += 1) expect(await callbacks.record(token, request({ n: String(i) }))).toBe('https://example.com/next');
    const kept = await callbacks.forAccount('acme').requests(id);
    expect(kept).toHaveLength(MAX_CALLBACK_REQUESTS);
    expect(kept[0]?.query.n).toBe('5');
    expect(kept.at(-1)?.query.n).toBe(String(MAX_CALLBACK_REQUESTS + 4));
    expect(await callbacks.forAccount('other').requests(id)).toEqual([]);
    expect(await callbacks.target(token)).toEqual({ account: 'acme', id, forward: 'https://example.com/next' });
  });

  it('knows no token it did not make, and forgets a callback when it expires', async () => {
    expect(await callbacks.target('x'.repeat(43))).toBeUndefined();
    expect(await callbacks.record('x'.repeat(43), request({}))).toBeUndefined();
    expect(await callbacks.target('../../etc')).toBeUndefined();
    const shortLived = createCallbackStore({ redis, keys, urlKey, ttlSeconds: 1 });
    const { id, token } = await shortLived.forAccount('acme').register({ filter: { name: 'state', value: 's' } });
    expect(await shortLived.target(token)).toEqual({ account: 'acme', id, forward: '', filter: { name: 'state', value: 's' } });
    expect(await shortLived.record(token, request({ state: 's' }))).toBe('');
    await waitFor(async () => (await shortLived.target(token)) === undefined, { timeoutMs: 5000, what: 'the callback to expire' });
    expect(await shortLived.record(token, request({ state: 's' }))).toBeUndefined();
    await waitFor(async () => (await shortLived.forAccount('acme').requests(id)).length === 0, { timeoutMs: 5000, what: 'its requests to expire' });
  });
});
