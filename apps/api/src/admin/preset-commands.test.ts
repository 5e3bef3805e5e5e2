import { randomBytes } from 'node:crypto';
import { applyAccountsFile, createAccountStore } from '@ces/accounts';
import {
  createAccountChoreoStore,
  createScheduleStore,
  createExecutionStore,
  createKeySpace,
  createPresetStore,
  createRedisConnection,
  createSecretCipher,
  createTokenStore,
  openRunInputs,
  openProgressEntries,
  openSealedOutputs,
  openSealedResults,
  resealExecutionSecrets,
  createWebhookStore,
  sealRunInputs,
  sealProgressEntries,
  sealSecretOutputs,
  sealSecretResults,
  waitUntilReady,
  type SecretCipher,
} from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, testAccounts } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runAdmin } from './admin-cli.ts';
import type { CommandContext } from './command-context.ts';

// The admin command line's preset and secrets-key commands, in process on a real Redis.
describe('admin: presets and the secrets key', () => {
  const keys = createKeySpace(isolatedPrefix('admin-presets'));
  const redis = createRedisConnection(inject('redisUrl'), 'request', 'admin-presets-test');
  const accounts = createAccountStore({ redis, keys });
  const firstKey = randomBytes(32);

  /** Runs one command with its own buffers; `cipher` is the key the command runs with. */
  async function admin(argv: string[], options: { stdin?: string; cipher?: SecretCipher } = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const cipher = options.cipher === undefined ? createSecretCipher({ current: firstKey }) : options.cipher;
    const code = await runAdmin(
      argv,
      { out: (text) => out.push(text), err: (text) => err.push(text), errIsTerminal: false, readStdin: async () => options.stdin ?? '' },
      async (json): Promise<CommandContext> => ({
        accounts,
        executions: createExecutionStore({ redis, keys, retentionSeconds: 300 }),
        choreos: createAccountChoreoStore({ redis, keys }),
        schedules: createScheduleStore({ redis, keys }),
        presets: createPresetStore({ redis, keys, cipher, maxPresetsPerAccount: 0 }),
        tokens: createTokenStore({ redis, keys, cipher }),
        webhooks: createWebhookStore({ redis, keys, cipher, maxWebhooksPerAccount: 0 }),
        resealExecutions: () => resealExecutionSecrets({ redis, keys, cipher }),
        queues: () => {
          throw new Error('not needed');
        },
        io: { out: (text) => out.push(text), err: (text) => err.push(text), errIsTerminal: false, readStdin: async () => options.stdin ?? '' },
        json,
      }),
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  beforeAll(async () => {
    await waitUntilReady(redis);
    await applyAccountsFile(accounts, testAccounts({ withOperator: false }).file);
  });

  afterAll(async () => {
    await deleteKeysWithPrefix(redis, keys.prefix);
    redis.disconnect();
  });

  it('puts a preset from stdin, lists it, shows it masked or with its plain values, and deletes it', async () => {
    const stdin = JSON.stringify({
      inputs: [
        { name: 'Key', value: 'admin-secret-value', secret: true },
        { name: 'Algorithm', value: 'sha1' },
      ],
    });
    const put = await admin(['presets', 'put', 'acme', 'ops-made', '--json'], { stdin });
    expect(put.code, put.err).toBe(0);
    expect(JSON.parse(put.out)).toEqual({ account: 'acme', preset: 'ops-made', created: true, inputs: ['Key', 'Algorithm'] });
    expect(JSON.parse((await admin(['presets', 'list', 'acme', '--json'])).out)).toEqual({ account: 'acme', presets: ['ops-made'] });
    const masked = await admin(['presets', 'show', 'acme', 'ops-made']);
    expect(masked.out).toMatch(/Key\s+\*{8}\s+yes/);
    expect(masked.out).toMatch(/Algorithm\s+\*{8}/);
    const shown = await admin(['presets', 'show', 'acme', 'ops-made', '--values', '--json']);
    expect(JSON.parse(shown.out).inputs).toEqual([
      { name: 'Key', value: '********', secret: true },
      { name: 'Algorithm', value: 'sha1', secret: false },
    ]);
    expect(`${masked.out}${shown.out}${put.out}`).not.toContain('admin-secret-value');
    expect((await admin(['presets', 'delete', 'acme', 'ops-made'])).code).toBe(0);
    const again = await admin(['presets', 'delete', 'acme', 'ops-made']);
    expect(again.code).toBe(1);
    expect(again.err).toContain('no preset "ops-made"');
  });

  it('refuses a bad input set, a bad name or an unknown account clearly', async () => {
    const bad = await admin(['presets', 'put', 'acme', 'p'], { stdin: '{"inputs": [{"name": "Key", "value": "leaky-secret' });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('stdin: The body is not valid JSON');
    expect(bad.err).not.toContain('leaky-secret');
    expect((await admin(['presets', 'list', 'acme', '--values'])).code).toBe(2);
    expect((await admin(['presets', 'show', 'acme', '-bad'])).code).toBe(2);
    const unknown = await admin(['presets', 'list', 'nobody']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('no account named "nobody"');
  });

  it('grants an application the presets right with --right, and refuses a right that is not one', async () => {
    const created = await admin(['keys', 'create', 'acme', 'preset-writer', '--right', 'presets', '--json']);
    expect(created.code, created.err).toBe(0);
    expect(JSON.parse(created.out)).toMatchObject({ app: 'preset-writer', rights: ['presets'] });
    const rotated = await admin(['keys', 'rotate', 'acme', 'preset-writer', '--json']);
    expect(JSON.parse(rotated.out)).toMatchObject({ rights: ['presets'] });
    const shown = await admin(['accounts', 'show', 'acme']);
    expect(shown.out).toMatch(/app\s+preset-writer\s+\/\*\*\s+presets/);
    const wrong = await admin(['keys', 'create', 'acme', 'wrong', '--right', 'root']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('--right "root" is not a right: choreos, presets');
  });

  it('seals every preset value, token and execution secret again under a new key, after which the old key is not needed', async () => {
    await admin(['presets', 'put', 'acme', 'rotating'], { stdin: JSON.stringify({ inputs: [{ name: 'Key', value: 'rotate-me', secret: true }] }) });
    await createTokenStore({ redis, keys, cipher: createSecretCipher({ current: firstKey }) })
      .forAccount('other')
      .store('api', 'token-rotate-me', 0);
    // A retained execution keeps sealed inputs and a secret output; its progress is a hash too, with none.
    const executionId = 'e0c1d2b3a4958677e0c1d2b3a4958677';
    const old = createSecretCipher({ current: firstKey });
    const storedOutputs = sealSecretOutputs(old, executionId, { Token: 'output-rotate-me', Valid: 'true' }, new Set(['Token']));
    await redis.hset(keys.execution(executionId), {
      id: executionId,
      status: 'SUCCESS',
      sealed: sealRunInputs(old, executionId, { Value: 'input-rotate-me' }),
      output: JSON.stringify(storedOutputs),
    });
    await redis.hset(keys.executionProgress(executionId), 'step', '{}');
    // A running one keeps a secret step result in its checkpoint, in a durable wait's entries and in its progress.
    const runningId = 'f1e2d3c4b5a69788f1e2d3c4b5a69788';
    const isSecret = (address: string) => address.endsWith('get');
    const waitEntry = sealProgressEntries(old, runningId, [['wait.get', { token: 'wait-rotate-me' }]], isSecret)[0]?.[1];
    await redis.hset(keys.execution(runningId), {
      id: runningId,
      status: 'RUNNING',
      results: JSON.stringify(sealSecretResults(old, runningId, { get: { token: 'result-rotate-me' }, other: 1 }, isSecret)),
      wait: JSON.stringify({ 'wait.get': waitEntry, 'hold@': 5 }),
    });
    for (const [address, value] of sealProgressEntries(old, runningId, [['loop[0].get', { token: 'entry-rotate-me' }]], isSecret)) {
      await redis.hset(keys.executionProgress(runningId), address, JSON.stringify(value));
    }
    // A webhook with a rotated secret beside its current one, and the notify secret.
    const oldWebhooks = createWebhookStore({ redis, keys, cipher: old, maxWebhooksPerAccount: 0 });
    await oldWebhooks.put('acme', 'rotating', { url: 'https://hooks.example.com/in', events: ['execution.ended'] }, ['/**']);
    const webhookSecret = await oldWebhooks.rotateSecret('acme', 'rotating');
    const notifySecret = await oldWebhooks.createNotifySecret('acme');
    const secondKey = randomBytes(32);
    const rotating = createSecretCipher({ current: secondKey, previous: [firstKey] });
    const resealed = await admin(['secrets', 'reseal', '--json'], { cipher: rotating });
    expect(resealed.code, resealed.err).toBe(0);
    expect(JSON.parse(resealed.out)).toEqual({ presets: 1, tokens: 1, webhooks: 2, executions: 2 });
    expect(JSON.parse((await admin(['secrets', 'reseal', '--json'], { cipher: rotating })).out)).toEqual({
      presets: 0,
      tokens: 0,
      webhooks: 0,
      executions: 0,
    });
    const newWebhooks = createWebhookStore({ redis, keys, cipher: createSecretCipher({ current: secondKey }), maxWebhooksPerAccount: 0 });
    expect((await newWebhooks.signingTarget('acme', 'rotating'))?.secrets[0]).toBe(webhookSecret);
    expect((await newWebhooks.signingTarget('acme', 'notify'))?.secrets).toEqual([notifySecret]);
    const onlyNew = createSecretCipher({ current: secondKey });
    expect(await createPresetStore({ redis, keys, cipher: onlyNew, maxPresetsPerAccount: 0 }).read('acme', 'rotating')).toEqual([
      { name: 'Key', value: 'rotate-me', secret: true },
    ]);
    expect((await createTokenStore({ redis, keys, cipher: onlyNew }).forAccount('other').get('api'))?.value).toBe('token-rotate-me');
    const record = await redis.hgetall(keys.execution(executionId));
    expect(openRunInputs(onlyNew, executionId, record.sealed ?? '')).toEqual({ Value: 'input-rotate-me' });
    expect(openSealedOutputs(onlyNew, executionId, JSON.parse(record.output ?? '{}'))).toEqual({ Token: 'output-rotate-me', Valid: 'true' });
    // Bound to its execution: the same sealed outputs open in no other record.
    expect(() => openSealedOutputs(onlyNew, 'ffffffffffffffffffffffffffffffff', JSON.parse(record.output ?? '{}'))).toThrow();
    const running = await redis.hgetall(keys.execution(runningId));
    expect(openSealedResults(onlyNew, runningId, JSON.parse(running.results ?? '{}'))).toEqual({ get: { token: 'result-rotate-me' }, other: 1 });
    expect(openProgressEntries(onlyNew, runningId, Object.entries(JSON.parse(running.wait ?? '{}')), isSecret)).toEqual(
      new Map<string, unknown>([
        ['wait.get', { token: 'wait-rotate-me' }],
        ['hold@', 5],
      ]),
    );
    const progress = Object.entries(await redis.hgetall(keys.executionProgress(runningId))).map(([address, json]) => [address, JSON.parse(json)] as const);
    expect(openProgressEntries(onlyNew, runningId, progress, isSecret)).toEqual(new Map([['loop[0].get', { token: 'entry-rotate-me' }]]));
  });
});
