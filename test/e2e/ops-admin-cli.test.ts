import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFreePort } from '@ces/local-runtime';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Credential, type Stack } from '../support/stack.ts';
import { must } from '@ces/testing';

const ADMIN = fileURLToPath(new URL('../../apps/api/src/admin/main.ts', import.meta.url));
const COUNTDOWN = '/Library/Utilities/Development/Countdown';

interface AdminResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

// Each command is a fresh Node process: allow for their start-up on a busy machine.
describe('admin command line, run as a real process against a running API', { timeout: 60_000 }, () => {
  let stack: Stack;
  /** The stack's SECRETS_KEY, which the admin's preset commands must share to be read by the API. */
  const secretsKey = randomBytes(32).toString('base64');

  /** `npm run admin -- <args>`, as a child process on the stack's Redis and key prefix. */
  function admin(args: string[], stdin = '', env: Record<string, string> = {}): Promise<AdminResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [ADMIN, ...args], {
        env: { ...process.env, REDIS_URL: inject('redisUrl'), REDIS_PREFIX: stack.prefix, ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(stdin);
    });
  }

  async function adminJson(args: string[], stdin?: string) {
    const result = await admin([...args, '--json'], stdin);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout);
  }

  const listChoreos = (credential: Credential) => stack.call('GET', '/choreos', credential);

  beforeAll(async () => {
    // No workers: a run stays queued, for the execution commands.
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 0, env: { SECRETS_KEY: secretsKey } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('creates an account and an application key that authenticates, limited to its Choreo patterns', async () => {
    expect(await adminJson(['accounts', 'create', 'tenant-x'])).toEqual({ account: 'tenant-x', created: true });
    const again = await admin(['accounts', 'create', 'tenant-x']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('account "tenant-x" exists already');

    const accounts = (await adminJson(['accounts', 'list'])).accounts as { account: string }[];
    expect(accounts.map((a) => a.account)).toEqual(['acme', 'other', 'tenant-x']);

    const created = await admin(['keys', 'create', 'tenant-x', 'robot', '--choreo', '/Library/Utilities/Encoding/**']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('shown this once');
    const key = must(created.stdout.trim().split('\n').at(-1));
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const res = await listChoreos({ account: 'tenant-x', name: 'robot', secret: key });
    expect(res.status, res.text).toBe(200);
    const resources = res.json().resources as string[];
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.every((id) => id.startsWith('/Library/Utilities/Encoding/'))).toBe(true);

    // The key itself is nowhere in Redis: only its digest is stored.
    const stored = await stack.redis.hget(stack.keys.accountApps('tenant-x'), 'robot');
    expect(stored).not.toContain(key);
    const shown = await admin(['accounts', 'show', 'tenant-x']);
    expect(shown.stdout).toMatch(/app\s+robot\s+\/Library\/Utilities\/Encoding\/\*\*/);
    expect(shown.stdout).not.toContain(key);
  });

  it('rotates a key (the old one stops working) and revokes it (the new one stops too)', async () => {
    const { key: first } = await adminJson(['keys', 'create', 'tenant-x', 'rotating']);
    const robot = (secret: string) => ({ account: 'tenant-x', name: 'rotating', secret });
    expect((await listChoreos(robot(first))).status).toBe(200);

    const { key: second, choreos } = await adminJson(['keys', 'rotate', 'tenant-x', 'rotating']);
    expect(choreos).toEqual(['/**']);
    expect(second).not.toBe(first);
    expect((await listChoreos(robot(second))).status).toBe(200);
    expect((await listChoreos(robot(first))).status).toBe(401);

    expect(await adminJson(['keys', 'revoke', 'tenant-x', 'rotating'])).toEqual({ account: 'tenant-x', app: 'rotating', revoked: true });
    expect((await listChoreos(robot(second))).status).toBe(401);

    const missing = await admin(['keys', 'revoke', 'tenant-x', 'rotating']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no application "rotating" in account "tenant-x"');
    const rotateMissing = await admin(['keys', 'rotate', 'tenant-x', 'rotating']);
    expect(rotateMissing.code).toBe(1);
  });

  it('adds a user whose password comes from stdin, or is generated and shown once', async () => {
    const password = 'correct horse battery staple';
    expect(await adminJson(['users', 'add', 'tenant-x', 'carol', '--password-stdin'], `${password}\n`)).toEqual({
      account: 'tenant-x',
      user: 'carol',
      choreos: ['/**'],
      created: true,
    });
    expect((await listChoreos({ account: 'tenant-x', name: 'carol', secret: password })).status).toBe(200);

    const generated = await adminJson(['users', 'add', 'tenant-x', 'dave', '--choreo', '/Library/**']);
    expect((await listChoreos({ account: 'tenant-x', name: 'dave', secret: generated.password })).status).toBe(200);

    // A password reset without --choreo keeps the user's patterns; it does not widen them.
    const reset = await adminJson(['users', 'add', 'tenant-x', 'dave', '--password-stdin'], 'a new password for dave\n');
    expect(reset).toMatchObject({ user: 'dave', choreos: ['/Library/**'], updated: true });
  });

  it('removes a user and an operator: their passwords stop working at once, and the list forgets them', async () => {
    const password = 'a password for erin';
    await adminJson(['users', 'add', 'tenant-x', 'erin', '--password-stdin'], `${password}\n`);
    const erin = { account: 'tenant-x', name: 'erin', secret: password };
    expect((await listChoreos(erin)).status).toBe(200);
    expect(await adminJson(['users', 'remove', 'tenant-x', 'erin'])).toEqual({ account: 'tenant-x', user: 'erin', removed: true });
    expect((await listChoreos(erin)).status).toBe(401);
    expect((await adminJson(['accounts', 'show', 'tenant-x'])).credentials.map((c: { name: string }) => c.name)).not.toContain('erin');
    const again = await admin(['users', 'remove', 'tenant-x', 'erin']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no user "erin" in account "tenant-x"');

    const operatorPassword = 'a password for the night shift';
    await adminJson(['operators', 'add', 'night', '--password-stdin'], `${operatorPassword}\n`);
    const night = `Basic ${Buffer.from(`night:${operatorPassword}`).toString('base64')}`;
    expect((await stack.http.request('GET', '/ops/workers', { headers: { authorization: night } })).status).toBe(200);
    expect(await adminJson(['operators', 'remove', 'night'])).toEqual({ operator: 'night', removed: true });
    expect((await stack.http.request('GET', '/ops/workers', { headers: { authorization: night } })).status).toBe(401);
    expect((await adminJson(['operators', 'list'])).operators).not.toContain('night');
  });

  it('answers mistakes with clear messages and exit codes', async () => {
    const unknownAccount = await admin(['keys', 'create', 'nope', 'robot']);
    expect(unknownAccount).toMatchObject({ code: 1, stdout: '' });
    expect(unknownAccount.stderr).toContain('no account named "nope"');

    const unknownCommand = await admin(['keys', 'frobnicate']);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('unknown command "keys frobnicate"');

    const badPattern = await admin(['keys', 'create', 'tenant-x', 'bad', '--choreo', 'Library']);
    expect(badPattern.code).toBe(2);
    expect(badPattern.stderr).toContain('is not a Choreo pattern');

    const missingArgument = await admin(['accounts', 'create']);
    expect(missingArgument.code).toBe(2);
    expect(missingArgument.stderr).toContain('accounts create takes <account>');

    const badName = await admin(['accounts', 'create', 'Bad Name!']);
    expect(badName.code).toBe(2);
    expect(badName.stderr).toContain('"Bad Name!" is not an account name');

    // A password typed as an argument is not repeated back.
    const extra = await admin(['users', 'add', 'tenant-x', 'erin', 'hunter2secret']);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('users add takes <account> <user>, not 3 arguments');
    expect(extra.stderr).not.toContain('hunter2secret');

    const help = await admin(['help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('keys rotate <account> <app>');
  });

  it('lists running executions and terminates one by the API’s rules', async () => {
    const run = await stack.call('POST', `/choreos${COUNTDOWN}?mode=async`, stack.credentials.acmeApp, {
      body: JSON.stringify({ inputs: [{ name: 'StepMilliseconds', value: '1000' }] }),
    });
    expect(run.status, run.text).toBe(202);
    const id = run.json().id as string;

    const all = (await adminJson(['executions', 'list'])).executions as { id: string; account: string; choreo: string; host: string }[];
    expect(all).toContainEqual(expect.objectContaining({ id, account: 'acme', choreo: COUNTDOWN, host: '' }));
    const ofOther = (await adminJson(['executions', 'list', '--account', 'other'])).executions;
    expect(ofOther).toEqual([]);
    const table = await admin(['executions', 'list', '--account', 'acme']);
    expect(table.stdout).toMatch(new RegExp(`${id}\\s+acme\\s+${COUNTDOWN}\\s+\\S+\\s+\\(queued\\)`));

    // No worker holds it: it leaves the queue and ends at once.
    expect(await stack.redis.exists(`${stack.prefix}:executions:${id}`)).toBe(1);
    expect(await adminJson(['executions', 'terminate', id])).toEqual({ id, outcome: 'ended' });
    const status = await stack.call('GET', `/choreo-executions/${id}`, stack.credentials.acmeApp);
    expect(status.json().execution.status).toBe('TERMINATED_MANUALLY');
    expect(await stack.redis.exists(`${stack.prefix}:executions:${id}`)).toBe(0);
    expect(await adminJson(['executions', 'terminate', id])).toEqual({ id, outcome: 'already-terminated' });
    expect((await adminJson(['executions', 'list'])).executions).toEqual([]);

    const unknown = await admin(['executions', 'terminate', '0'.repeat(32)]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no execution');
    expect((await admin(['executions', 'terminate', 'not-an-id'])).code).toBe(2);
  });

  describe('without SECRETS_KEY', () => {
    let dataDir: string;

    beforeAll(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'ces-admin-key-'));
    });

    afterAll(() => {
      rmSync(dataDir, { recursive: true, force: true });
    });

    const presetBody = (value: string) => JSON.stringify({ inputs: [{ name: 'Message', value, secret: false }] });

    it('seals presets with the key npm start wrote under DATA_DIR, which the API opens', async () => {
      const none = await admin(['presets', 'list', 'acme'], '', { SECRETS_KEY: '', DATA_DIR: dataDir });
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('presets need SECRETS_KEY');

      writeFileSync(join(dataDir, 'secrets.key'), `${secretsKey}\n`, { mode: 0o600 });
      const put = await admin(['presets', 'put', 'acme', 'from-file-key'], presetBody('sealed by the written key'), { SECRETS_KEY: '', DATA_DIR: dataDir });
      expect(put.code, put.stderr).toBe(0);
      const shown = await stack.call('GET', '/presets/from-file-key?values=shown', stack.credentials.alice);
      expect(shown.status, shown.text).toBe(200);
      expect(shown.json().inputs).toEqual([{ name: 'Message', value: 'sealed by the written key', secret: false }]);
    });

    it('takes SECRETS_KEY from the environment over the written key', async () => {
      writeFileSync(join(dataDir, 'secrets.key'), 'not a key\n', { mode: 0o600 });
      const refused = await admin(['presets', 'list', 'acme'], '', { SECRETS_KEY: '', DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`the secrets key written by npm start in ${join(dataDir, 'secrets.key')} is not a valid key`);
      expect(refused.stderr).not.toContain('not a key\n');

      const put = await admin(['presets', 'put', 'acme', 'from-env-key'], presetBody('sealed by the set key'), { SECRETS_KEY: secretsKey, DATA_DIR: dataDir });
      expect(put.code, put.stderr).toBe(0);
      const shown = await stack.call('GET', '/presets/from-env-key?values=shown', stack.credentials.alice);
      expect(shown.json().inputs).toEqual([{ name: 'Message', value: 'sealed by the set key', secret: false }]);
    });
  });

  describe('without REDIS_URL', () => {
    let dataDir: string;

    beforeAll(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'ces-admin-'));
    });

    afterAll(() => {
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('uses the Redis npm start wrote under DATA_DIR', async () => {
      writeFileSync(join(dataDir, 'redis-url'), `${inject('redisUrl')}\n`);
      const listed = await admin(['accounts', 'list', '--json'], '', { REDIS_URL: '', DATA_DIR: dataDir });
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).accounts.map((a: { account: string }) => a.account)).toEqual(expect.arrayContaining(['acme', 'other']));
    });

    it('fails with a clear message, not an empty answer, when npm start wrote no Redis', async () => {
      const empty = mkdtempSync(join(tmpdir(), 'ces-admin-empty-'));
      try {
        const result = await admin(['accounts', 'list'], '', { REDIS_URL: '', DATA_DIR: empty });
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toContain('no Redis to use: set REDIS_URL, or start the service with npm start');
      } finally {
        rmSync(empty, { recursive: true, force: true });
      }
    });

    it('fails, naming the file it read, when that Redis does not answer', async () => {
      // A port that was free a moment ago: nothing answers there.
      const port = await findFreePort();
      writeFileSync(join(dataDir, 'redis-url'), `redis://:not-shown@127.0.0.1:${port}\n`);
      const result = await admin(['accounts', 'list'], '', { REDIS_URL: '', DATA_DIR: dataDir });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`cannot reach Redis at`);
      expect(result.stderr).toContain(`127.0.0.1:${port} (written by npm start in ${join(dataDir, 'redis-url')})`);
      // The password the file holds is never printed.
      expect(result.stderr).not.toContain('not-shown');
    });
  });
});
