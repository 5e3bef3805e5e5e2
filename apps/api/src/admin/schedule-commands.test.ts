import { createAccountStore } from '@ces/accounts';
import {
  createAccountChoreoStore,
  createExecutionStore,
  createKeySpace,
  createRedisConnection,
  createScheduleStore,
  waitUntilReady,
  type KeySpace,
} from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix } from '@ces/testing';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runAdmin } from './admin-cli.ts';
import type { CommandContext } from './command-context.ts';

describe('admin command line: an account’s schedules', () => {
  let redis: Redis;
  let keys: KeySpace;

  beforeAll(async () => {
    redis = createRedisConnection(inject('redisUrl'), 'request', 'admin-schedules-test');
    await waitUntilReady(redis);
    keys = createKeySpace(isolatedPrefix('admin-schedules'));
    const accounts = createAccountStore({ redis, keys });
    await accounts.createAccount('acme');
    await accounts.createAccount('other');
    await createScheduleStore({ redis, keys }).put(
      'acme',
      'nightly',
      {
        choreo: '/Library/Utilities/Encoding/Base64Encode',
        inputs: [],
        timing: { cron: '0 2 * * *', timezone: 'Europe/Berlin' },
        overlap: 'skip',
        catchupWindowSeconds: 3_600,
      },
      { now: Date.now(), paused: false },
    );
  });

  afterAll(async () => {
    await deleteKeysWithPrefix(redis, keys.prefix);
    await redis.quit();
  });

  async function admin(argv: string[]) {
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
      io: { out: (text) => out.push(text), err: (text) => err.push(text), errIsTerminal: false, readStdin: async () => '' },
      json: argv.includes('--json'),
    };
    const status = await runAdmin(argv, context.io, async () => context);
    return { status, out: out.join('\n'), err: err.join('\n') };
  }

  it('lists an account’s schedules, and none of another’s', async () => {
    const listed = await admin(['schedules', 'list', 'acme', '--json']);
    expect(listed.status).toBe(0);
    const { schedules } = JSON.parse(listed.out) as { schedules: { name: string; paused: boolean; nextTime: string }[] };
    expect(schedules).toMatchObject([{ name: 'nightly', paused: false, choreo: '/Library/Utilities/Encoding/Base64Encode' }]);
    expect(Number(schedules[0]?.nextTime)).toBeGreaterThan(Date.now());
    expect((await admin(['schedules', 'list', 'acme'])).out).toContain('0 2 * * * (Europe/Berlin)');
    expect((await admin(['schedules', 'list', 'other'])).out).toBe('Account "other" has no schedules.');
  });

  it('pauses it out of the due set and resumes it at a tick after now', async () => {
    expect((await admin(['schedules', 'pause', 'acme', 'nightly'])).status).toBe(0);
    expect(await redis.zscore(keys.schedulesDue(), 'acme\nnightly')).toBeNull();
    expect((await createScheduleStore({ redis, keys }).get('acme', 'nightly'))?.paused).toBe(true);
    const before = Date.now();
    const resumed = await admin(['schedules', 'resume', 'acme', 'nightly', '--json']);
    expect(resumed.status).toBe(0);
    const { schedule } = JSON.parse(resumed.out) as { schedule: { paused: boolean; nextTime: string } };
    expect(schedule.paused).toBe(false);
    expect(Number(schedule.nextTime)).toBeGreaterThan(before);
    expect(Number(await redis.zscore(keys.schedulesDue(), 'acme\nnightly'))).toBe(Number(schedule.nextTime));
  });

  it('says what is wrong: an unknown schedule or account, a bad name', async () => {
    expect(await admin(['schedules', 'pause', 'acme', 'absent'])).toMatchObject({ status: 1, err: expect.stringContaining('no schedule "absent"') });
    expect(await admin(['schedules', 'pause', 'other', 'nightly'])).toMatchObject({
      status: 1,
      err: expect.stringContaining('no schedule "nightly" in account "other"'),
    });
    expect(await admin(['schedules', 'list', 'nobody'])).toMatchObject({ status: 1, err: expect.stringContaining('no account named') });
    expect((await admin(['schedules', 'pause', 'acme', 'bad/name'])).status).toBe(2);
  });
});
