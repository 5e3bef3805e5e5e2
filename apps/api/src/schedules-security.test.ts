import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// Who may see and change schedules: another account's schedule is not there (404), applications
// write only when granted the "schedules" right (403), and a Choreo an application may not run
// cannot be scheduled by it.
const HMAC = '/Library/Utilities/Hashing/HMAC';
const schedule = JSON.stringify({
  choreo: HMAC,
  every: '1h',
  inputs: [
    { name: 'Text', value: 'x' },
    { name: 'Key', value: 'k' },
  ],
});

describe('schedules: access', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
    expect((await t.call('PUT', '/schedules/acme-report', t.credentials.alice, { body: schedule })).status).toBe(201);
  });

  afterAll(async () => {
    await t?.close();
  });

  it("another account's schedule is not there, for any operation; its own list does not show it", async () => {
    const { bob } = t.credentials;
    expect((await t.call('GET', '/schedules/acme-report', bob)).status).toBe(404);
    expect((await t.call('DELETE', '/schedules/acme-report', bob)).status).toBe(404);
    expect((await t.call('POST', '/schedules/acme-report/trigger', bob)).status).toBe(404);
    expect((await t.call('POST', '/schedules/acme-report/pause', bob)).status).toBe(404);
    expect((await t.call('POST', '/schedules/acme-report/resume', bob)).status).toBe(404);
    const now = Date.now();
    expect((await t.call('POST', '/schedules/acme-report/backfill', bob, { body: JSON.stringify({ from: now - 3_600_000, to: now }) })).status).toBe(404);
    expect(await (await t.call('GET', '/schedules', bob)).json()).toEqual({ schedules: [] });
    // Writing the same name makes bob's own schedule; acme's is untouched.
    expect((await t.call('PUT', '/schedules/acme-report', bob, { body: schedule })).status).toBe(201);
    expect((await (await t.call('GET', '/schedules/acme-report', t.credentials.alice)).json()).fired).toBe(0);
  });

  it('an application without the right reads schedules but gets 403 on every write', async () => {
    const { acmeApp } = t.credentials;
    expect((await t.call('GET', '/schedules', acmeApp)).status).toBe(200);
    expect((await t.call('GET', '/schedules/acme-report', acmeApp)).status).toBe(200);
    const now = Date.now();
    const writes = [
      t.call('PUT', '/schedules/by-app', acmeApp, { body: schedule }),
      t.call('DELETE', '/schedules/acme-report', acmeApp),
      t.call('POST', '/schedules/acme-report/trigger', acmeApp),
      t.call('POST', '/schedules/acme-report/pause', acmeApp),
      t.call('POST', '/schedules/acme-report/resume', acmeApp),
      t.call('POST', '/schedules/acme-report/backfill', acmeApp, { body: JSON.stringify({ from: now - 3_600_000, to: now }) }),
    ];
    for (const response of await Promise.all(writes)) expect(response.status).toBe(403);
    expect((await t.call('GET', '/schedules/by-app', acmeApp)).status).toBe(404);
  });

  it('asks for credentials', async () => {
    const wrong = { ...t.credentials.alice, secret: 'not the password' };
    expect((await t.call('GET', '/schedules', wrong)).status).toBe(401);
    expect((await t.call('PUT', '/schedules/anon', wrong, { body: schedule })).status).toBe(401);
  });
});
