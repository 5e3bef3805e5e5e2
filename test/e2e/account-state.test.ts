import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Credential, type Stack } from '../support/stack.ts';

// Presets and stored tokens end to end: real API and worker processes over HTTPS on a real Redis.
// Values given to them never appear in clear in Redis, in a log line or in an error.
const ECHO = '/choreos/Library/Utilities/Development/Echo';
const GET_JSON_VALUE = '/choreos/Library/Utilities/JSON/GetValuesFromJSON';
const TOKENS = '/choreos/Library/Utilities/TokenStorage';
const CALLBACK = '/choreos/Library/Utilities/Callback';
const PRESET_SECRET = 'preset-secret-6f1e2a9d44';
const TOKEN_SECRET = 'token-secret-c0ffee51234';

describe('presets and token storage, end to end', { timeout: 60_000 }, () => {
  let stack: Stack;
  let callbackPath = '';

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

  it('serves a callback URL over HTTPS without credentials, records what it receives, and gives it back to its account only', async () => {
    const { alice, bob } = stack.credentials;
    const registered = (await runSync(`${CALLBACK}/RegisterCallback`, alice, {})).output;
    expect(registered.CallbackID).toMatch(/^[0-9a-f]{32}$/);
    const url = new URL(registered.CallbackURL ?? '');
    expect(url.origin).toBe(`https://127.0.0.1:${stack.port}`);
    expect(url.pathname).toMatch(/^\/callbacks\/[A-Za-z0-9_-]{43}$/);
    callbackPath = url.pathname;

    const visit = await stack.http.request('GET', `${url.pathname}?code=c-123&state=s-1`, {
      headers: { cookie: 'session=visitor-secret', accept: 'text/html' },
    });
    expect(visit.status).toBe(200);
    const posted = await stack.http.request('POST', `${url.pathname}?state=s-2`, { body: '{"event":"paid"}', headers: { 'content-type': 'application/json' } });
    expect(posted.status).toBe(200);

    const read = async (credential: Credential, inputs: Record<string, string>) =>
      (await runSync(`${CALLBACK}/GetCallbackData`, credential, { inputs: Object.entries(inputs).map(([name, value]) => ({ name, value })) })).output
        .CallbackData ?? '';
    const all = JSON.parse(await read(alice, { CallbackID: registered.CallbackID ?? '' }));
    expect(all).toHaveLength(2);
    expect(all[0]).toMatchObject({ method: 'GET', query: { code: 'c-123', state: 's-1' } });
    expect(all[0].headers.cookie).toBeUndefined();
    expect(all[1]).toMatchObject({ method: 'POST', query: { state: 's-2' }, body: '{"event":"paid"}', headers: { 'content-type': 'application/json' } });
    const filtered = JSON.parse(await read(alice, { CallbackID: registered.CallbackID ?? '', FilterName: 'state', FilterValue: 's-2' }));
    expect(filtered.map((request: { method: string }) => request.method)).toEqual(['POST']);
    expect(await read(alice, { CallbackID: registered.CallbackID ?? '', ResponseFormat: 'xml' })).toMatch(
      /^<requests><request><method>GET<\/method>.*<parameter name="code">c-123<\/parameter>/,
    );
    // Another account reading the same id reads its own (none).
    expect(await read(bob, { CallbackID: registered.CallbackID ?? '' })).toBe('[]');
  });

  it('refuses a callback URL whose token was changed, and gives a custom id one static URL per account', async () => {
    const { alice, bob } = stack.credentials;
    const changed = callbackPath.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    expect((await stack.http.request('GET', changed)).status).toBe(404);
    expect((await stack.http.request('GET', '/callbacks/not-a-token')).status).toBe(404);
    const register = async (credential: Credential, inputs: Record<string, string>) =>
      (await runSync(`${CALLBACK}/RegisterCallback`, credential, { inputs: Object.entries(inputs).map(([name, value]) => ({ name, value })) })).output;
    const first = await register(alice, { CustomCallbackD: 'orders' });
    const again = await register(alice, { CustomCallbackD: 'orders' });
    const bobs = await register(bob, { CustomCallbackD: 'orders' });
    expect(first).toEqual(again);
    expect(first.CallbackID).toBe('orders');
    expect(bobs.CallbackURL).not.toBe(first.CallbackURL);
    // With a forwarding URL, the visitor is redirected once recorded.
    const forwarding = await register(alice, { ForwardingURL: 'https://example.com/done?x=1' });
    const visit = await stack.http.request('GET', new URL(forwarding.CallbackURL ?? '').pathname);
    expect(visit.status).toBe(302);
    expect(visit.headers.location).toBe('https://example.com/done?x=1');
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
    // A callback URL's token lets anyone in: no log line has it.
    expect(logs).toContain('/callbacks/…');
    expect(logs).not.toContain(callbackPath.split('/')[2] ?? 'no callback');
    expect(logs).not.toContain(PRESET_SECRET);
    expect(logs).not.toContain(TOKEN_SECRET);
  });
});
