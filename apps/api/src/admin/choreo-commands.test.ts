import { createAccountStore } from '@ces/accounts';
import {
  createAccountChoreoStore,
  createScheduleStore,
  createExecutionStore,
  createKeySpace,
  createRedisConnection,
  waitUntilReady,
  type KeySpace,
} from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix } from '@ces/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { greeterDocument } from '../test-support/choreo-documents.ts';
import { runAdmin } from './admin-cli.ts';
import type { CommandContext } from './command-context.ts';

describe('admin command line: an account’s own Choreos', () => {
  let redis: Redis;
  let keys: KeySpace;

  beforeAll(async () => {
    redis = createRedisConnection(inject('redisUrl'), 'request', 'admin-choreos-test');
    await waitUntilReady(redis);
    keys = createKeySpace(isolatedPrefix('admin-choreos'));
    const accounts = createAccountStore({ redis, keys });
    await accounts.createAccount('acme');
    await accounts.createAccount('copy');
  });

  afterAll(async () => {
    await deleteKeysWithPrefix(redis, keys.prefix);
    await redis.quit();
  });

  async function admin(argv: string[], stdin = '') {
    const out: string[] = [];
    const err: string[] = [];
    const context: CommandContext = {
      accounts: createAccountStore({ redis, keys }),
      executions: createExecutionStore({ redis, keys, retentionSeconds: 300 }),
      choreos: createAccountChoreoStore({ redis, keys }),
      schedules: createScheduleStore({ redis, keys }),
      queues: () => {
        throw new Error('no queue in these commands');
      },
      io: { out: (text) => out.push(text), err: (text) => err.push(text), errIsTerminal: false, readStdin: async () => stdin },
      json: argv.includes('--json'),
    };
    const status = await runAdmin(argv, context.io, async () => context);
    return { status, out: out.join('\n'), err: err.join('\n') };
  }

  it('lists, exports and imports them into another account, each import a new version', async () => {
    const store = createAccountChoreoStore({ redis, keys });
    await store.put('acme', '/Mine/Greeter', JSON.stringify(greeterDocument('Hello')), { maxCount: 0, maxBytes: 0 });
    await store.put('acme', '/Mine/Greeter', JSON.stringify(greeterDocument('Hi')), { maxCount: 0, maxBytes: 0 });
    await store.put('acme', '/Tools/Other', JSON.stringify(greeterDocument('Hey')), { maxCount: 0, maxBytes: 0 });

    const listed = await admin(['choreos', 'list', 'acme', '--json']);
    expect(listed.status, listed.err).toBe(0);
    expect(JSON.parse(listed.out).choreos.map((c: { id: string; version: number }) => [c.id, c.version])).toEqual([
      ['/Mine/Greeter', 2],
      ['/Tools/Other', 1],
    ]);
    expect((await admin(['choreos', 'list', 'acme'])).out).toMatch(/^CHOREO\s+VERSION\s+UPDATED\s+BYTES\n\/Mine\/Greeter\s+2\s/);

    const exported = await admin(['choreos', 'export', 'acme']);
    expect(exported.status, exported.err).toBe(0);
    const document = JSON.parse(exported.out);
    expect(document.choreos[0]).toEqual({ id: '/Mine/Greeter', version: 2, document: greeterDocument('Hi') });

    const imported = await admin(['choreos', 'import', 'copy', '--json'], exported.out);
    expect(imported.status, imported.err).toBe(0);
    expect(JSON.parse(imported.out).imported).toEqual([
      { id: '/Mine/Greeter', version: 1 },
      { id: '/Tools/Other', version: 1 },
    ]);
    expect(JSON.parse((await store.get('copy', '/Mine/Greeter'))?.document ?? '{}')).toEqual(greeterDocument('Hi'));
  });

  it('imports nothing when one document is not a valid Choreo, and says where', async () => {
    const bad = JSON.stringify({
      choreos: [
        { id: '/Fine/One', document: greeterDocument('Hello') },
        { id: '/Broken/One', document: { ...greeterDocument('Hello'), steps: [] } },
        { id: '/Library/Mine', document: greeterDocument('Hello') },
      ],
    });
    const refused = await admin(['choreos', 'import', 'copy'], bad);
    expect(refused.status).toBe(1);
    expect(refused.err).toContain('/Broken/One/steps: a Choreo needs at least one step');
    expect(refused.err).toContain('/Library/Mine: not an id an account may write');
    expect(await createAccountChoreoStore({ redis, keys }).get('copy', '/Fine/One')).toBeUndefined();
    expect((await admin(['choreos', 'import', 'copy'], 'not json')).status).toBe(2);
    expect((await admin(['choreos', 'list', 'nobody'])).status).toBe(1);
  });
});
