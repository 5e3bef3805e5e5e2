import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { failedRun } from './test-support/failed-runs.ts';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// Who may redrive a run: whoever may terminate it; another account, or a credential that may not
// see its Choreo, is told it does not exist.
const ENCODE = '/Library/Utilities/Encoding/Base64Encode';
const OUTSIDE_ENCODING = '/Library/Utilities/Hashing/SHA256Hash';

describe('redrive access', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers 404 to another account, without a trace on the run', async () => {
    const failed = await failedRun(t, { choreo: ENCODE, inputs: { Text: 'mine' } });
    const res = await t.call('POST', `/choreo-executions/${failed}/redrive`, t.credentials.bob);
    expect(res.status).toBe(404);
    expect(await t.executions.summary(failed, { withOutputs: false })).not.toHaveProperty('redrivenBy');
  });

  it('answers 404 to a credential of the account that may not see the run’s Choreo, and 202 to one that may', async () => {
    const failed = await failedRun(t, { choreo: OUTSIDE_ENCODING, inputs: { Text: 't' } });
    expect((await t.call('POST', `/choreo-executions/${failed}/redrive`, t.credentials.encodingApp)).status).toBe(404);
    expect((await t.call('POST', `/choreo-executions/${failed}/redrive`, t.credentials.acmeApp)).status).toBe(202);
  });

  it('answers 401 without credentials', async () => {
    const failed = await failedRun(t, { choreo: ENCODE, inputs: { Text: 'anon' } });
    expect((await t.call('POST', `/choreo-executions/${failed}/redrive`, undefined, { headers: { 'x-service-domain': '/acme/master' } })).status).toBe(401);
  });
});
