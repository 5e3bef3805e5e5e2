import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { type AccountState, bindInputs } from '@ces/language';
import { createStepLibrary } from '@ces/steps';
import { type Catalogue, loadCatalogue } from '@ces/catalogue';
import { runChoreo, type RunOutcome } from '@ces/engine';
import { createSecretCipher, createTokenStore } from '@ces/store';
import { waitFor } from '@ces/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// The TokenStorage Choreos of the catalogue, run by the engine with the real step library and a
// real token store: the account state reaches the steps through the engine untouched.
describe('TokenStorage Choreos through the engine', () => {
  const { keys, redis } = storeOnRedis('token-choreos');
  const tokens = createTokenStore({ redis, keys, cipher: createSecretCipher({ current: randomBytes(32) }) });
  const steps = createStepLibrary();
  let catalogue: Catalogue;

  const stateOf = (account: string): AccountState => ({ account, tokens: tokens.forAccount(account) });

  async function run(choreo: string, provided: Record<string, string>, account = 'acme'): Promise<RunOutcome> {
    const entry = catalogue.get(`/Library/Utilities/TokenStorage/${choreo}`);
    if (entry === undefined || !entry.valid) throw new Error(`${choreo} is not a valid Choreo`);
    const bound = bindInputs(entry.definition, provided);
    if (!bound.ok) throw new Error(`${choreo}: missing ${bound.missing.join(', ')}`);
    return runChoreo({
      definition: entry.definition,
      inputs: bound.inputs,
      steps,
      account: stateOf(account),
      hooks: { beforeStep: () => undefined, afterStep: async () => undefined, afterProgress: async () => undefined },
    });
  }

  async function outputs(choreo: string, provided: Record<string, string>, account = 'acme') {
    const outcome = await run(choreo, provided, account);
    if (outcome.kind !== 'completed') throw new Error(`${choreo} ended ${outcome.kind}: ${outcome.kind === 'failed' ? outcome.error : ''}`);
    return outcome.checkpoint.outputs;
  }

  beforeAll(async () => {
    catalogue = await loadCatalogue(fileURLToPath(new URL('../../choreos', import.meta.url)), steps);
  });

  it('stores, retrieves, checks, invalidates and deletes a token', async () => {
    expect(await outputs('StoreToken', { Name: 'crm', Value: 'crm-token-1' })).toEqual({ Updated: 'true' });
    expect(await outputs('RetrieveToken', { Name: 'crm' })).toEqual({ Token: 'crm-token-1', Locked: 'false', Valid: 'true' });
    expect(await outputs('IsValid', { Name: 'crm' })).toEqual({ Valid: 'true' });
    expect(await outputs('SetValid', { Name: 'crm', Valid: 'false' })).toEqual({ Updated: 'true' });
    expect(await outputs('IsValid', { Name: 'crm' })).toEqual({ Valid: 'false' });
    expect(await outputs('SetValid', { Name: 'nothing-here', Valid: 'true' })).toEqual({ Updated: 'false' });
    expect(await outputs('GetTokenDetails', { Names: '["crm", "nothing-here"]' })).toEqual({
      Tokens: JSON.stringify([{ name: 'crm', value: 'crm-token-1', valid: false, locked: false }]),
    });
    expect(await outputs('DeleteToken', { Name: 'crm' })).toEqual({ Deleted: 'true' });
    expect(await outputs('DeleteToken', { Name: 'crm' })).toEqual({ Deleted: 'false' });
    expect(await outputs('RetrieveToken', { Name: 'crm' })).toEqual({ Token: '', Locked: 'false', Valid: 'false' });
  });

  it('forgets a token after Expires seconds', async () => {
    await outputs('StoreToken', { Name: 'short', Value: 'short-lived', Expires: '1' });
    expect((await outputs('RetrieveToken', { Name: 'short' })).Token).toBe('short-lived');
    await waitFor(async () => (await outputs('RetrieveToken', { Name: 'short' })).Token === '', { timeoutMs: 5000, what: 'the token to expire' });
  });

  it('gives a lock once: a second LockToken gets "", and RetrieveToken with LockToken waits until it is free', async () => {
    await outputs('StoreToken', { Name: 'shared', Value: 'shared-token' });
    expect(await outputs('LockToken', { Name: 'shared' })).toEqual({ Token: 'shared-token' });
    expect(await outputs('LockToken', { Name: 'shared' })).toEqual({ Token: '' });
    expect(await outputs('IsLocked', { Name: 'shared' })).toEqual({ Locked: 'true' });
    // The waiting retrieval gets the lock once the holder stores the refreshed token.
    const waiting = run('RetrieveToken', { Name: 'shared', LockToken: 'true' });
    await waitFor(async () => (await outputs('IsLocked', { Name: 'shared' })).Locked === 'true', { what: 'the lock to be held' });
    await tokens.forAccount('acme').store('shared', 'refreshed-token', 0);
    const retrieved = await waiting;
    expect(retrieved).toMatchObject({ kind: 'completed', checkpoint: { outputs: { Token: 'refreshed-token', Locked: 'true', Valid: 'true' } } });
    expect(await outputs('LockToken', { Name: 'shared' })).toEqual({ Token: '' });
  });

  it("keeps accounts apart: another account's runs see none of its tokens", async () => {
    await outputs('StoreToken', { Name: 'private', Value: 'acme-only' });
    expect(await outputs('RetrieveToken', { Name: 'private' }, 'other')).toEqual({ Token: '', Locked: 'false', Valid: 'false' });
    expect(await outputs('IsValid', { Name: 'private' }, 'other')).toEqual({ Valid: 'false' });
    expect(await outputs('LockToken', { Name: 'private' }, 'other')).toEqual({ Token: '' });
    expect(await outputs('DeleteToken', { Name: 'private' }, 'other')).toEqual({ Deleted: 'false' });
    expect(await outputs('GetTokenDetails', { Names: '["private"]' }, 'other')).toEqual({ Tokens: '[]' });
    expect(await outputs('RetrieveToken', { Name: 'private' })).toEqual({ Token: 'acme-only', Locked: 'false', Valid: 'true' });
  });

  it('refuses bad input with a clear error that does not repeat a token', async () => {
    const tooLong = await run('StoreToken', { Name: 'long', Value: `secret-${'x'.repeat(5000)}` });
    expect(tooLong).toMatchObject({ kind: 'failed', error: expect.stringContaining('at most 4096 characters') });
    expect(tooLong.kind === 'failed' ? tooLong.error : '').not.toContain('secret-');
    expect(await run('GetTokenDetails', { Names: 'crm' })).toMatchObject({ kind: 'failed', error: expect.stringContaining('JSON array of token names') });
    expect(await run('StoreToken', { Name: 'n', Value: 'v', Expires: '-1' })).toMatchObject({
      kind: 'failed',
      error: expect.stringContaining('expiresSeconds'),
    });
    expect(await run('SetValid', { Name: 'n', Valid: 'maybe' })).toMatchObject({ kind: 'failed', error: expect.stringContaining('expected true or false') });
  });
});

// The OAuth helpers reach token endpoints through the HTTP steps' egress policy.
describe('OAuth2 token endpoints and the egress policy', () => {
  it('refuses a token endpoint on a private address unless the service allows private networks', async () => {
    const closed = createStepLibrary({ http: { allowPrivateNetworks: false, timeoutMs: 5000, maxResponseBytes: 1024 * 1024 } });
    const catalogue = await loadCatalogue(fileURLToPath(new URL('../../choreos', import.meta.url)), closed);
    const entry = catalogue.get('/Library/Utilities/Authentication/OAuth2/RefreshToken');
    if (!entry?.valid) throw new Error('RefreshToken is not valid');
    const inputs = { AccessTokenEndpoint: 'http://127.0.0.1:9/token', ClientID: 'c', ClientSecret: 's', RefreshToken: 'r' };
    const outcome = await runChoreo({
      definition: entry.definition,
      inputs,
      steps: closed,
      hooks: { beforeStep: () => undefined, afterStep: async () => undefined, afterProgress: async () => undefined },
    });
    expect(outcome).toMatchObject({ kind: 'failed', error: 'refresh: requests to 127.0.0.1 are not allowed: loopback address' });
    const open = createStepLibrary({ http: { allowPrivateNetworks: true, timeoutMs: 5000, maxResponseBytes: 1024 * 1024 } });
    const allowed = await runChoreo({
      definition: entry.definition,
      inputs,
      steps: open,
      hooks: { beforeStep: () => undefined, afterStep: async () => undefined, afterProgress: async () => undefined },
    });
    // Allowed, the request goes out (and finds nothing listening on the discard port).
    expect(allowed).toMatchObject({ kind: 'failed', error: expect.stringMatching(/^refresh: HTTP request failed/) });
  });
});
