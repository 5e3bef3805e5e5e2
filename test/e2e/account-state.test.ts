import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Credential, type Stack } from '../support/stack.ts';

// Presets and stored tokens end to end: real API and worker processes over HTTPS on a real Redis.
// Values given to them never appear in clear in Redis, in a log line or in an error.
const ECHO = '/choreos/Library/Utilities/Development/Echo';
const GET_JSON_VALUE = '/choreos/Library/Utilities/JSON/GetValuesFromJSON';
const TOKENS = '/choreos/Library/Utilities/TokenStorage';
const PRESET_SECRET = 'preset-secret-6f1e2a9d44';
const TOKEN_SECRET = 'token-secret-c0ffee51234';

describe('presets and token storage, end to end', { timeout: 60_000 }, () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1 });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function runSync(path: string, credential: Credential, body: unknown) {
    const res = await stack.call('POST', path, credential, { body: JSON.stringify(body) });
    expect(res.status, res.text).toBe(200);
    return res.json() as { output: Record<string, string>; execution: { id: string; status: string } };
  }

  it("fills a run's inputs from a preset, the run's own overriding it", async () => {
    const { alice } = stack.credentials;
    const put = await stack.call('PUT', '/presets/echo-message', alice, {
      body: JSON.stringify({ inputs: [{ name: 'Message', value: PRESET_SECRET, secret: true }] }),
    });
    expect(put.status).toBe(201);
    const fromPreset = await runSync(ECHO, alice, { preset: 'echo-message' });
    expect(fromPreset.execution.status).toBe('SUCCESS');
    expect(fromPreset.output.Message).toBe(PRESET_SECRET);
    const overridden = await runSync(ECHO, alice, { preset: 'echo-message', inputs: [{ name: 'Message', value: 'the run wins' }] });
    expect(overridden.output.Message).toBe('the run wins');
  });

  it("masks a preset's values in the error of a run that quotes them", async () => {
    const { alice } = stack.credentials;
    await stack.call('PUT', '/presets/broken-json', alice, { body: JSON.stringify({ inputs: [{ name: 'JSON', value: PRESET_SECRET }] }) });
    const run = await runSync(GET_JSON_VALUE, alice, { preset: 'broken-json', inputs: [{ name: 'Path', value: '$.k' }] });
    expect(run.execution.status).toBe('ERROR');
    const status = (await stack.call('GET', `/choreo-executions/${run.execution.id}`, alice)).json().execution;
    expect(status.lasterror).toMatch(/JSON is not valid/);
    // Stored as the step said it (the parser quotes the start of the text it read); masked where
    // it is shown.
    const quoted = PRESET_SECRET.slice(0, 10);
    expect((await stack.executions.get(run.execution.id))?.lasterror).toContain(quoted);
    expect(status.lasterror).not.toContain(quoted);
    expect(status.lasterror).toContain('"********"');
  });

  it('stores, retrieves, locks and deletes a token through the original Choreos, for its own account only', async () => {
    const { alice, bob } = stack.credentials;
    expect(
      (
        await runSync(`${TOKENS}/StoreToken`, alice, {
          inputs: [
            { name: 'Name', value: 'crm' },
            { name: 'Value', value: TOKEN_SECRET },
          ],
        })
      ).output,
    ).toEqual({
      Updated: 'true',
    });
    expect((await runSync(`${TOKENS}/RetrieveToken`, alice, { inputs: [{ name: 'Name', value: 'crm' }] })).output).toEqual({
      Token: TOKEN_SECRET,
      Locked: 'false',
      Valid: 'true',
    });
    // Another account has no such token, and cannot take, change or delete it.
    expect((await runSync(`${TOKENS}/RetrieveToken`, bob, { inputs: [{ name: 'Name', value: 'crm' }] })).output.Token).toBe('');
    expect((await runSync(`${TOKENS}/LockToken`, bob, { inputs: [{ name: 'Name', value: 'crm' }] })).output.Token).toBe('');
    expect((await runSync(`${TOKENS}/DeleteToken`, bob, { inputs: [{ name: 'Name', value: 'crm' }] })).output.Deleted).toBe('false');
    // A lock is had once.
    expect((await runSync(`${TOKENS}/LockToken`, alice, { inputs: [{ name: 'Name', value: 'crm' }] })).output.Token).toBe(TOKEN_SECRET);
    expect((await runSync(`${TOKENS}/LockToken`, alice, { inputs: [{ name: 'Name', value: 'crm' }] })).output.Token).toBe('');
    expect((await runSync(`${TOKENS}/IsLocked`, alice, { inputs: [{ name: 'Name', value: 'crm' }] })).output.Locked).toBe('true');
    expect((await runSync(`${TOKENS}/DeleteToken`, alice, { inputs: [{ name: 'Name', value: 'crm' }] })).output.Deleted).toBe('true');
  });

  it('keeps every value sealed in Redis and out of every log line', async () => {
    const dump: string[] = [];
    for (const key of await stack.redis.keys(`${stack.prefix}*`)) {
      const type = await stack.redis.type(key);
      if (type === 'hash') dump.push(JSON.stringify(await stack.redis.hgetall(key)));
      if (type === 'string') dump.push((await stack.redis.get(key)) ?? '');
      if (type === 'list') dump.push(JSON.stringify(await stack.redis.lrange(key, 0, -1)));
    }
    const stored = dump.join('\n');
    // Outputs are the runs' results, kept for their callers: the Echo and RetrieveToken runs above.
    const withoutOutputs = stored.replaceAll(/"output":"(?:[^"\\]|\\.)*"/g, '');
    expect(withoutOutputs).not.toContain(PRESET_SECRET);
    expect(withoutOutputs).not.toContain(TOKEN_SECRET);
    const logs = stack.logs();
    expect(logs).toContain('execution ended');
    expect(logs).not.toContain(PRESET_SECRET);
    expect(logs).not.toContain(TOKEN_SECRET);
  });
});
