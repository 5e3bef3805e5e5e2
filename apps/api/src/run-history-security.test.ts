import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';
import { recordRuns } from './test-support/recorded-runs.ts';

// Who sees which runs in the history: as for the status resource.
describe('run history: access', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  const ids = async (credential: InProcessApp['credentials']['alice'], query: string) => {
    const res = await t.call('GET', `/choreo-executions?${query}`, credential);
    expect(res.status).toBe(200);
    return ((await res.json()).executions as { id: string }[]).map((entry) => entry.id);
  };

  it("never shows another account's runs", async () => {
    const base = Date.UTC(2021, 0, 1);
    const [mine, theirs] = await recordRuns(t.executions, base, [
      { choreo: '/Library/Utilities/Encoding/Base64Encode', status: 'SUCCESS' },
      { account: 'other', choreo: '/Library/Utilities/Encoding/Base64Encode', status: 'SUCCESS' },
    ]);
    const range = `status=any&since=${base}&until=${base + 10}`;
    expect(await ids(t.credentials.alice, range)).toEqual([mine]);
    expect(await ids(t.credentials.bob, range)).toEqual([theirs]);
  });

  it('shows a credential limited to Choreo patterns only their runs, pages still full', async () => {
    const base = Date.UTC(2021, 1, 1);
    const [encoded, , decoded] = await recordRuns(t.executions, base, [
      { choreo: '/Library/Utilities/Encoding/Base64Encode', status: 'SUCCESS' },
      { choreo: '/Library/Echo', status: 'SUCCESS' },
      { choreo: '/Library/Utilities/Encoding/Base64Decode', status: 'ERROR' },
    ]);
    const range = `since=${base}&until=${base + 10}`;
    expect(await ids(t.credentials.encodingApp, `${range}&limit=2`)).toEqual([decoded, encoded]);
    expect(await ids(t.credentials.encodingApp, `${range}&choreo=/Library/Echo`)).toEqual([]);
    expect(await ids(t.credentials.alice, range)).toHaveLength(3);
  });
});
