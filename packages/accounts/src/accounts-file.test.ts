import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKeySpace, createRedisConnection, waitUntilReady } from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, must } from '@ces/testing';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createAccountStore } from './account-store.ts';
import { AccountsFileError, applyAccountsFile, readAccountsFile, type AccountsFile } from './accounts-file.ts';
import { createAuthenticator } from './authenticator.ts';

describe('readAccountsFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'accounts-file-'));
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads accounts, credentials and operators, with every Choreo by default', async () => {
    const path = write('good.json', JSON.stringify({ accounts: [{ name: 'demo', users: [{ name: 'admin', password: 'pw-123456' }] }] }));
    expect(await readAccountsFile(path)).toEqual({
      accounts: [{ name: 'demo', users: [{ name: 'admin', password: 'pw-123456', choreos: ['/**'] }], apps: [] }],
      operators: [],
    });
  });

  it('says where a file is not JSON without quoting it, since the text may be a password', async () => {
    const path = write('broken.json', '{"accounts": [{"name": "demo", "users": [{"name": "admin", "password": hunter2-secret}]}]}');
    const failure = await readAccountsFile(path).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AccountsFileError);
    expect((failure as Error).message).toContain(path);
    expect((failure as Error).message).toContain('is not JSON');
    expect((failure as Error).message).not.toContain('hunter2');
  });

  it('names what is wrong in a file of the wrong shape', async () => {
    const path = write('shape.json', JSON.stringify({ accounts: [{ name: 'demo', users: [{ name: 'admin', password: 42 }] }] }));
    await expect(readAccountsFile(path)).rejects.toThrow(/accounts\.0\.users\.0\.password/);
  });

  it.each([
    ['a misspelt key', { name: 'app', key: 'k'.repeat(40), choreo: ['/Library/**'] }, /Unrecognized key/],
    ['an empty list of patterns', { name: 'app', key: 'k'.repeat(40), choreos: [] }, /at least one pattern/],
    ['a pattern that is not one', { name: 'app', key: 'k'.repeat(40), choreos: ['/Library/../**'] }, /not a Choreo pattern/],
  ])('refuses %s rather than grant every Choreo', async (_, app, message) => {
    const path = write('wide.json', JSON.stringify({ accounts: [{ name: 'demo', apps: [app] }] }));
    await expect(readAccountsFile(path)).rejects.toThrow(message);
  });
});

// Applied at every start of every API process: what the admin command line changed since must
// survive it, or a restart would bring back a revoked or rotated key.
describe('applyAccountsFile', () => {
  const keys = createKeySpace(isolatedPrefix('accounts-file'));
  const redis = createRedisConnection(inject('redisUrl'), 'request', 'accounts-file-test');
  const store = createAccountStore({ redis, keys });
  const authenticator = createAuthenticator({ accounts: store });
  const fileKey = 'file-key-'.padEnd(40, 'f');
  const file = (password = 'file password 1'): AccountsFile => ({
    accounts: [
      {
        name: 'demo',
        users: [{ name: 'alice', password, choreos: ['/Library/**'] }],
        apps: [
          { name: 'revoked', key: fileKey, choreos: ['/**'] },
          { name: 'rotated', key: fileKey, choreos: ['/**'] },
        ],
      },
    ],
    operators: [{ name: 'oncall', password: 'operator password' }],
  });

  afterAll(async () => {
    await deleteKeysWithPrefix(redis, keys.prefix);
    redis.disconnect();
  });

  it('keeps what the admin command line revoked or changed, and applies the file to the rest', async () => {
    await waitUntilReady(redis);
    expect(await applyAccountsFile(store, file())).toEqual([]);
    expect(await authenticator.authenticate('demo', 'revoked', fileKey)).toMatchObject({ kind: 'app' });

    expect(await store.revokeCredential('demo', 'app', 'revoked')).toBe(true);
    const newKey = await store.issueAppKey('demo', 'rotated');
    await store.putOperator('oncall', 'changed by the operator');

    // A restart, with the file unchanged but for alice's password.
    expect(await applyAccountsFile(store, file('file password 2'))).toEqual(['demo/app:revoked', 'demo/app:rotated', 'operator:oncall']);
    expect(await authenticator.authenticate('demo', 'revoked', fileKey)).toBeUndefined();
    expect(await authenticator.authenticate('demo', 'rotated', fileKey)).toBeUndefined();
    expect(await authenticator.authenticate('demo', 'rotated', newKey)).toMatchObject({ kind: 'app' });
    expect(await authenticator.authenticateOperator('oncall', 'changed by the operator')).toMatchObject({ kind: 'operator' });
    expect(await authenticator.authenticate('demo', 'alice', 'file password 2')).toMatchObject({ kind: 'user', choreos: ['/Library/**'] });
    expect((await store.listCredentials('demo')).map((credential) => credential.name)).toEqual(['rotated', 'alice']);
  });

  it('keeps a user and an operator the command line removed out, and lists them no more', async () => {
    await waitUntilReady(redis);
    await applyAccountsFile(store, file());
    expect(await store.revokeCredential('demo', 'user', 'alice')).toBe(true);
    expect(await store.revokeOperator('oncall')).toBe(true);
    expect(await store.listOperators()).toEqual([]);

    expect(await applyAccountsFile(store, file())).toEqual(expect.arrayContaining(['demo/user:alice', 'operator:oncall']));
    expect(await authenticator.authenticate('demo', 'alice', 'file password 1')).toBeUndefined();
    expect(await authenticator.authenticateOperator('oncall', 'operator password')).toBeUndefined();
    expect(await store.revokeOperator('oncall')).toBe(false);
  });

  it('lets the file have a name the command line revoked before it ever existed', async () => {
    await waitUntilReady(redis);
    expect(await store.revokeCredential('demo', 'app', 'typo')).toBe(false);
    const withTypo: AccountsFile = { accounts: [{ name: 'demo', users: [], apps: [{ name: 'typo', key: fileKey, choreos: ['/**'] }] }], operators: [] };
    expect(await applyAccountsFile(store, withTypo)).toEqual([]);
    expect(await authenticator.authenticate('demo', 'typo', fileKey)).toMatchObject({ kind: 'app' });
  });

  it('grants an application only the rights the file gives it, and every right to users', async () => {
    await waitUntilReady(redis);
    const granted = (plainRights: 'presets'[] | undefined): AccountsFile => ({
      accounts: [
        {
          name: 'rights',
          users: [{ name: 'carol', password: 'carol password', choreos: ['/**'] }],
          apps: [
            { name: 'plain', key: fileKey, choreos: ['/**'], ...(plainRights ? { rights: plainRights } : {}) },
            { name: 'writer', key: fileKey, choreos: ['/**'], rights: ['presets'] },
          ],
        },
      ],
      operators: [],
    });
    await applyAccountsFile(store, granted(undefined));
    expect(await authenticator.authenticate('rights', 'plain', fileKey)).toMatchObject({ kind: 'app', rights: [] });
    expect(await authenticator.authenticateKey('rights', 'writer', fileKey)).toMatchObject({ kind: 'app', rights: ['presets'] });
    expect(await authenticator.authenticate('rights', 'carol', 'carol password')).toMatchObject({
      kind: 'user',
      rights: ['choreos', 'presets', 'schedules', 'webhooks'],
    });
    // A rotated key keeps the rights; the file taking a right away writes the record again.
    const rotated = await store.issueAppKey('rights', 'writer');
    expect(await authenticator.authenticateKey('rights', 'writer', rotated)).toMatchObject({ rights: ['presets'] });
    await applyAccountsFile(store, granted(['presets']));
    expect(await authenticator.authenticateKey('rights', 'plain', fileKey)).toMatchObject({ rights: ['presets'] });
    const path = join(mkdtempSync(join(tmpdir(), 'accounts-file-')), 'bad-right.json');
    writeFileSync(path, JSON.stringify({ accounts: [{ name: 'demo', apps: [{ name: 'a', key: fileKey, rights: ['everything'] }] }] }));
    await expect(readAccountsFile(path)).rejects.toThrow(/rights/);
  });

  it('writes and announces nothing when the file says what it wrote before, and rewrites what it changes', async () => {
    await waitUntilReady(redis);
    const steady = createKeySpace(isolatedPrefix('accounts-file-steady'));
    const steadyStore = createAccountStore({ redis, keys: steady });
    const listener = createRedisConnection(inject('redisUrl'), 'subscriber', 'accounts-file-listener');
    const announced: string[] = [];
    listener.on('message', (_channel: string, message: string) => announced.push(must(message.split('\n')[1])));
    try {
      await listener.subscribe(steady.credentialsChangedChannel());
      expect(await applyAccountsFile(steadyStore, file())).toEqual([]);
      const stored = async () => ({
        alice: await steadyStore.getCredential('demo', 'user', 'alice'),
        app: await steadyStore.getCredential('demo', 'app', 'rotated'),
        oncall: await steadyStore.getOperator('oncall'),
      });
      const first = await stored();
      await expect.poll(() => announced.length, { timeout: 10_000 }).toBe(4);

      // A restart with the same file: the same records, the same hashes, and no announcement
      // before the one made next (messages arrive in the order they are published).
      expect(await applyAccountsFile(steadyStore, file())).toEqual([]);
      expect(await stored()).toEqual(first);
      await steadyStore.putApp('demo', 'marker', fileKey, ['/**']);
      await expect.poll(() => announced.length, { timeout: 10_000 }).toBe(5);
      expect(announced[4]).toBe('marker');

      // A new password, or new patterns, are written.
      const changed = file('file password 2');
      must(must(changed.accounts[0]).apps[1]).choreos = ['/Library/**'];
      expect(await applyAccountsFile(steadyStore, changed)).toEqual([]);
      const after = await stored();
      expect(must(after.alice).secretHash).not.toBe(must(first.alice).secretHash);
      expect(after.app).toMatchObject({ secretHash: must(first.app).secretHash, choreos: ['/Library/**'] });
      expect(after.oncall).toEqual(first.oncall);
      expect(await createAuthenticator({ accounts: steadyStore }).authenticate('demo', 'alice', 'file password 2')).toMatchObject({ kind: 'user' });
    } finally {
      await deleteKeysWithPrefix(redis, steady.prefix);
      listener.disconnect();
    }
  });
});
