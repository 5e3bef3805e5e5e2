import { Writable } from 'node:stream';
import { createLogger } from '@ces/observability';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MAX_CALLBACK_BODY_BYTES } from './routes/callback-capture.ts';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// Callback URLs in process: public, answering whatever the visitor accepts, recording a bounded
// request without the visitor's credentials, and never writing the token to a log line.
describe('callback URLs in process', () => {
  let t: InProcessApp;
  let logs = '';

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs += String(chunk);
        done();
      },
    });
    t = await startInProcessApp({ redisUrl: inject('redisUrl'), logger: createLogger({ name: 'api', level: 'debug' }, sink) });
  });

  afterAll(async () => {
    await t?.close();
  });

  async function register(options: { forwardingUrl?: string } = {}) {
    if (!t.callbacks) throw new Error('no callback store');
    return t.callbacks.forAccount('acme').register(options);
  }

  it('records a request without credentials, whatever it accepts, and leaves out its Authorization and Cookie', async () => {
    const { id, token } = await register();
    const res = await t.app.request(`/callbacks/${token}?code=1`, {
      method: 'POST',
      headers: { accept: 'text/html', authorization: 'Bearer visitor-token', cookie: 'sid=visitor', 'x-hook': 'yes' },
      body: 'payload',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('Received.\n');
    const [recorded] = (await t.callbacks?.forAccount('acme').requests(id)) ?? [];
    expect(recorded).toMatchObject({ method: 'POST', query: { code: '1' }, body: 'payload', headers: { 'x-hook': 'yes' } });
    expect(recorded?.headers.authorization).toBeUndefined();
    expect(recorded?.headers.cookie).toBeUndefined();
    expect(await t.callbacks?.forAccount('other').requests(id)).toEqual([]);
  });

  it('redirects to the forwarding URL once recorded', async () => {
    const { token } = await register({ forwardingUrl: 'https://example.com/after' });
    const res = await t.app.request(`/callbacks/${token}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://example.com/after');
  });

  it('answers 404 to an unknown or altered token and 413 to a large body, recording nothing', async () => {
    const { id, token } = await register();
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const path of [`/callbacks/${altered}`, '/callbacks/short', '/callbacks/']) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(404);
    }
    const large = await t.app.request(`/callbacks/${token}`, { method: 'POST', body: 'x'.repeat(MAX_CALLBACK_BODY_BYTES + 1) });
    expect(large.status).toBe(413);
    expect(await t.callbacks?.forAccount('acme').requests(id)).toEqual([]);
  });

  it('never writes a token to the access log', async () => {
    const { token } = await register();
    await t.app.request(`/callbacks/${token}`);
    expect(logs).toContain('"path":"/callbacks/…"');
    expect(logs).not.toContain(token);
  });
});
