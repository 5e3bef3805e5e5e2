import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EXECUTION_QUEUE } from '@ces/store';
import { waitFor } from '@ces/testing';
import { Queue } from 'bullmq';
import OAuth from 'oauth-1.0a';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CLIENT_SECRET, locationOf, startAuthorizationServer } from '../support/oauth2-server.ts';
import { startStack, type Credential, type Stack } from '../support/stack.ts';

// What the service keeps per account, end to end: presets, stored tokens, callback URLs and the
// OAuth 1.0a and 2.0 helpers built on them, with real API and worker processes over HTTPS on a real Redis.
// Secret values never appear in clear in Redis, in a log line or in an error.
const ECHO = '/choreos/Library/Utilities/Development/Echo';
const GET_JSON_VALUE = '/choreos/Library/Utilities/JSON/GetValuesFromJSON';
const TOKENS = '/choreos/Library/Utilities/TokenStorage';
const CALLBACK = '/choreos/Library/Utilities/Callback';
const OAUTH2 = '/choreos/Library/Utilities/Authentication/OAuth2';
const OAUTH1 = '/choreos/Library/Utilities/Authentication/OAuth1';

const CONSUMER = { key: 'consumer-1', secret: 'consumer-secret-4e3d2c' };

/**
 * A local OAuth 1.0a server that checks every signature (HMAC-SHA1): temporary credentials for a
 * callback, the user's authorization redirecting to it with a verifier, token credentials for both.
 */
function startOAuth1Server(): Promise<{ server: Server; base: string }> {
  const oauth = new OAuth({
    consumer: CONSUMER,
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
  const temporary = { token: 'request-token-1', secret: 'request-secret-1', verifier: 'verifier-1', callback: '' };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/authorize') {
      const back = new URL(temporary.callback);
      back.searchParams.set('oauth_token', url.searchParams.get('oauth_token') ?? '');
      back.searchParams.set('oauth_verifier', temporary.verifier);
      response.writeHead(302, { location: back.toString() }).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const data = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const header = Object.fromEntries(
        [...String(request.headers.authorization ?? '').matchAll(/(\w+)="([^"]*)"/g)].map(([, name = '', value = '']) => [name, decodeURIComponent(value)]),
      );
      const { oauth_signature: signature, ...signed } = header;
      const fullUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${url.pathname}`;
      const tokenSecret = url.pathname === '/access_token' ? temporary.secret : undefined;
      const expected = oauth.getSignature({ url: fullUrl, method: 'POST', data }, tokenSecret, signed as unknown as OAuth.Data);
      if (signature !== expected || header.oauth_consumer_key !== CONSUMER.key) return response.writeHead(401).end('oauth_problem=signature_invalid');
      if (url.pathname === '/request_token') {
        temporary.callback = data.oauth_callback ?? '';
        return response.end(`oauth_token=${temporary.token}&oauth_token_secret=${temporary.secret}&oauth_callback_confirmed=true`);
      }
      if (header.oauth_token !== temporary.token || data.oauth_verifier !== temporary.verifier)
        return response.writeHead(401).end('oauth_problem=token_rejected');
      return response.end('oauth_token=access-token-1&oauth_token_secret=access-secret-1');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

const PRESET_SECRET = 'preset-secret-6f1e2a9d44';
const TOKEN_SECRET = 'token-secret-c0ffee51234';
const SEALED_OUTPUT_SECRET = 'sealed-output-secret-7d41b0';

describe('account state end to end: presets, tokens, callbacks, OAuth', { timeout: 60_000 }, () => {
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
    const run = await runSync(GET_JSON_VALUE, alice, { preset: 'broken-json', inputs: [{ name: 'Property', value: 'k' }] });
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

  it('runs the OAuth 2.0 flow against a local authorization server: authorize, redirect to the callback, exchange, refresh', async () => {
    const { alice } = stack.credentials;
    const auth = await startAuthorizationServer();
    try {
      const initialized = (
        await runSync(`${OAUTH2}/InitializeOAuth`, alice, {
          inputs: [
            { name: 'ClientID', value: 'client-1' },
            { name: 'RequestTokenEndpoint', value: `${auth.base}/authorize` },
            { name: 'Scope', value: 'read write' },
          ],
        })
      ).output;
      const authorization = new URL(initialized.AuthorizationURL ?? '');
      expect(authorization.searchParams.get('response_type')).toBe('code');
      expect(authorization.searchParams.get('scope')).toBe('read write');
      const redirectUri = new URL(authorization.searchParams.get('redirect_uri') ?? '');
      expect(redirectUri.origin).toBe(`https://127.0.0.1:${stack.port}`);
      // FinalizeOAuth waits for the user.
      const finalizing = await stack.call('POST', `${OAUTH2}/FinalizeOAuth?mode=async`, alice, {
        body: JSON.stringify({
          inputs: [
            { name: 'AccessTokenEndpoint', value: `${auth.base}/token` },
            { name: 'CallbackID', value: initialized.CallbackID },
            { name: 'ClientID', value: 'client-1' },
            { name: 'ClientSecret', value: CLIENT_SECRET },
            { name: 'Timeout', value: '30' },
          ],
        }),
      });
      expect(finalizing.status).toBe(202);
      // A forged redirect without the right state is not recorded, so its code is never exchanged.
      expect((await stack.http.request('GET', `${redirectUri.pathname}?code=forged&state=guess`)).status).toBe(200);
      // The user grants access; the authorization server sends the browser to the callback.
      const back = new URL(await locationOf(authorization.toString()));
      expect(back.pathname).toBe(redirectUri.pathname);
      expect((await stack.http.request('GET', `${back.pathname}${back.search}`)).status).toBe(200);
      const id = finalizing.json().id as string;
      const ended = await stack.waitForEnd(id, alice, 40_000);
      expect(ended.status, ended.lasterror).toBe('SUCCESS');
      const finalized = (await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json().output;
      expect(JSON.parse(finalized.Response)).toMatchObject({ access_token: 'access-1', refresh_token: 'refresh-1' });
      expect(finalized.ErrorMessage).toBe('');

      const refreshed = await runSync(`${OAUTH2}/RefreshToken`, alice, {
        inputs: [
          { name: 'AccessTokenEndpoint', value: `${auth.base}/token` },
          { name: 'ClientID', value: 'client-1' },
          { name: 'ClientSecret', value: CLIENT_SECRET },
          { name: 'RefreshToken', value: 'refresh-1' },
        ],
      });
      expect(JSON.parse(refreshed.output.Response ?? '')).toMatchObject({ access_token: 'access-2' });
      const refused = await runSync(`${OAUTH2}/RefreshToken`, alice, {
        inputs: [
          { name: 'AccessTokenEndpoint', value: `${auth.base}/token` },
          { name: 'ClientID', value: 'client-1' },
          { name: 'ClientSecret', value: CLIENT_SECRET },
          { name: 'RefreshToken', value: 'refresh-unknown' },
        ],
      });
      expect(refused.execution.status).toBe('ERROR');
    } finally {
      auth.server.close();
    }
  });

  it('runs the OAuth 1.0a flow with signed requests: temporary credentials, authorization, token credentials', async () => {
    const { alice } = stack.credentials;
    const provider = await startOAuth1Server();
    try {
      const initialized = (
        await runSync(`${OAUTH1}/InitializeOAuth`, alice, {
          inputs: [
            { name: 'RequestTokenEndpoint', value: `${provider.base}/request_token` },
            { name: 'AuthorizationEndpoint', value: `${provider.base}/authorize` },
            { name: 'ConsumerKey', value: CONSUMER.key },
            { name: 'ConsumerSecret', value: CONSUMER.secret },
          ],
        })
      ).output;
      expect(initialized.OAuthTokenSecret).toBe('request-secret-1');
      expect(new URL(initialized.AuthorizationURL ?? '').searchParams.get('oauth_token')).toBe('request-token-1');
      const back = new URL(await locationOf(initialized.AuthorizationURL ?? ''));
      expect(back.origin).toBe(`https://127.0.0.1:${stack.port}`);
      expect((await stack.http.request('GET', `${back.pathname}${back.search}`)).status).toBe(200);
      const finalized = await runSync(`${OAUTH1}/FinalizeOAuth`, alice, {
        inputs: [
          { name: 'AccessTokenURL', value: `${provider.base}/access_token` },
          { name: 'CallbackID', value: initialized.CallbackID },
          { name: 'ConsumerKey', value: CONSUMER.key },
          { name: 'ConsumerSecret', value: CONSUMER.secret },
          { name: 'OAuthTokenSecret', value: initialized.OAuthTokenSecret },
        ],
      });
      expect(finalized.execution.status).toBe('SUCCESS');
      expect(finalized.output.Response).toBe('oauth_token=access-token-1&oauth_token_secret=access-secret-1');
      // A wrong consumer secret makes a signature the server refuses.
      const refused = await runSync(`${OAUTH1}/InitializeOAuth`, alice, {
        inputs: [
          { name: 'RequestTokenEndpoint', value: `${provider.base}/request_token` },
          { name: 'AuthorizationEndpoint', value: `${provider.base}/authorize` },
          { name: 'ConsumerKey', value: CONSUMER.key },
          { name: 'ConsumerSecret', value: 'not-the-secret' },
        ],
      });
      expect(refused.execution.status).toBe('ERROR');
    } finally {
      provider.server.close();
    }
  });

  it('gives FinalizeOAuth up after its Timeout, or returns the error it met with SuppressErrors', async () => {
    const { alice } = stack.credentials;
    const registered = (await runSync(`${CALLBACK}/RegisterCallback`, alice, {})).output;
    const finalize = (extra: { name: string; value: string }[]) =>
      runSync(`${OAUTH2}/FinalizeOAuth`, alice, {
        inputs: [
          { name: 'AccessTokenEndpoint', value: 'https://example.com/token' },
          { name: 'CallbackID', value: registered.CallbackID },
          { name: 'ClientID', value: 'client-1' },
          { name: 'ClientSecret', value: CLIENT_SECRET },
          { name: 'Timeout', value: '1' },
          ...extra,
        ],
      });
    const failed = await finalize([]);
    expect(failed.execution.status).toBe('ERROR');
    const suppressed = await finalize([{ name: 'SuppressErrors', value: 'true' }]);
    expect(suppressed.output).toEqual({ Response: '', ErrorMessage: 'no authorization reached the callback within 1 seconds' });
    // A denial reaches it: no exchange, the error returned.
    await stack.http.request('GET', `${new URL(registered.CallbackURL ?? '').pathname}?error=access_denied`);
    await waitFor(async () => (await finalize([{ name: 'SuppressErrors', value: 'true' }])).output.ErrorMessage?.includes('access_denied'), {
      timeoutMs: 10_000,
      what: 'the denial to be read',
    });
  });

  it("keeps a secret output sealed in the execution's record, and gives it to the caller in clear", async () => {
    const { alice } = stack.credentials;
    await runSync(`${TOKENS}/StoreToken`, alice, {
      inputs: [
        { name: 'Name', value: 'sealed-output' },
        { name: 'Value', value: SEALED_OUTPUT_SECRET },
      ],
    });
    // The synchronous answer comes from the end event, which carries the outputs as stored.
    const retrieved = await runSync(`${TOKENS}/RetrieveToken`, alice, { inputs: [{ name: 'Name', value: 'sealed-output' }] });
    expect(retrieved.output).toEqual({ Token: SEALED_OUTPUT_SECRET, Locked: 'false', Valid: 'true' });
    const id = retrieved.execution.id;
    const shown = (await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json();
    expect(shown.output).toEqual({ Token: SEALED_OUTPUT_SECRET, Locked: 'false', Valid: 'true' });
    // An asynchronous run read back later: the same.
    const started = await stack.startRun(`${TOKENS.replace('/choreos', '')}/RetrieveToken`, alice, { Name: 'sealed-output' });
    expect((await stack.waitForEnd(started, alice)).status).toBe('SUCCESS');
    expect((await stack.call('GET', `/choreo-executions/${started}?view=outputs`, alice)).json().output.Token).toBe(SEALED_OUTPUT_SECRET);

    for (const execution of [id, started]) {
      const record = await stack.redis.hgetall(stack.keys.execution(execution));
      expect(record.status).toBe('SUCCESS');
      const stored = JSON.parse(record.output ?? '{}') as Record<string, string>;
      // The outputs not declared secret stay as they are; the token is one sealed value.
      expect(stored).toEqual({ Locked: 'false', Valid: 'true', $sealed: expect.stringMatching(/^v1\./) });
      const everything = JSON.stringify([
        record,
        await stack.redis.hgetall(stack.keys.executionProgress(execution)),
        await stack.redis.lrange(stack.keys.executionSteps(execution), 0, -1),
      ]);
      expect(everything).not.toContain(SEALED_OUTPUT_SECRET);
    }
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
    // Outputs are the runs' results, kept for their callers: the Echo run above returns its preset's
    // value. Those declared secret (RetrieveToken's Token, the OAuth helpers' tokens) are sealed.
    const withoutOutputs = stored.replaceAll(/"output":"(?:[^"\\]|\\.)*"/g, '');
    expect(withoutOutputs).not.toContain(PRESET_SECRET);
    for (const secret of [TOKEN_SECRET, SEALED_OUTPUT_SECRET, 'access-1', 'refresh-1', 'access-2', 'request-secret-1', 'access-secret-1']) {
      expect(stored).not.toContain(secret);
    }
    expect(stored).not.toContain(CLIENT_SECRET);
    expect(stored).not.toContain(CONSUMER.secret);
    const logs = stack.logs();
    expect(logs).toContain('execution ended');
    // A callback URL's token lets anyone in: no log line has it.
    expect(logs).toContain('/callbacks/…');
    expect(logs).not.toContain(callbackPath.split('/')[2] ?? 'no callback');
    expect(logs).not.toContain(PRESET_SECRET);
    expect(logs).not.toContain(TOKEN_SECRET);
    expect(logs).not.toContain(CLIENT_SECRET);
    expect(logs).not.toContain(CONSUMER.secret);
  });
});

describe('a worker without SECRETS_KEY', { timeout: 60_000 }, () => {
  let stack: Stack;

  beforeAll(async () => {
    // The API has the key (it accepts the run); the only worker has none.
    stack = await startStack({ redisUrl: inject('redisUrl'), workerEnv: { SECRETS_KEY: '' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('fails the run, saying why, rather than keep its outputs in clear', async () => {
    const { alice } = stack.credentials;
    const id = await stack.startRun('/Library/Utilities/TokenStorage/RetrieveToken', alice, { Name: 'any' });
    const ended = await stack.waitForEnd(id, alice);
    expect(ended.status).toBe('ERROR');
    expect(ended.lasterror).toBe('this Choreo has secret outputs, and this worker has no SECRETS_KEY to seal them with');
    expect(await stack.redis.hget(stack.keys.execution(id), 'output')).toBe('{}');
  });

  it('retries the job of a run it cannot take after a backoff, then ends the run ERROR', async () => {
    const { alice } = stack.credentials;
    const put = await stack.call('PUT', '/presets/no-key-here', alice, { body: JSON.stringify({ inputs: [{ name: 'Message', value: PRESET_SECRET }] }) });
    expect(put.status).toBe(201);
    const started = await stack.call('POST', `${ECHO}?mode=async`, alice, { body: JSON.stringify({ preset: 'no-key-here' }) });
    expect(started.status).toBe(202);
    const id = started.json().id as string;
    // The take throws (the inputs are sealed, this worker cannot open them): BullMQ retries the job
    // after the workers' backoff, which it keeps among the delayed jobs meanwhile; with no backoff
    // it would go straight back to the waiting ones.
    const queue = new Queue(EXECUTION_QUEUE, { connection: stack.redis, prefix: stack.prefix });
    try {
      const retry = await waitFor(
        async () => {
          const job = await queue.getJob(id);
          if (job === undefined || job.attemptsMade < 1) return undefined;
          return (await job.getState()) === 'delayed' ? job : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 20, what: 'the failed job to wait for its retry among the delayed jobs' },
      );
      // The backoff is the workers' own: the job keeps none of it in Redis.
      expect(JSON.parse((await stack.redis.hget(`${stack.prefix}:${EXECUTION_QUEUE}:${retry.id}`, 'opts')) ?? '{}')).toEqual({ jobId: id, attempts: 5 });
      const ended = await stack.waitForEnd(id, alice, 40_000);
      expect(ended.status).toBe('ERROR');
      expect(ended.lasterror).toBe('The execution could not be run: the worker kept failing.');
    } finally {
      await queue.close();
    }
  });
});
