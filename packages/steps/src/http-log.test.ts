import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStep } from './run-step-for-test.ts';

/** What the original Utilities' HTTP Choreos add to http.request: Basic auth, Base64 bodies, the debug log. */

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      response.setHeader('content-type', 'application/json');
      response.setHeader('set-cookie', 'session=secret');
      response.end(
        JSON.stringify({
          method: request.method,
          url: request.url,
          auth: request.headers.authorization ?? null,
          length: request.headers['content-length'] ?? null,
          hex: body.toString('hex'),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

type Result = { status: number; body: string; log?: string };

describe('http.request for the original HTTP Choreos', () => {
  it('builds Basic authentication from username and password, replacing an Authorization header', async () => {
    const result = (await runStep('http.request', { url: base, username: 'ünïcode', password: 'p:w', headers: { Authorization: 'Bearer x' } })) as Result;
    expect(JSON.parse(result.body).auth).toBe(`Basic ${Buffer.from('ünïcode:p:w').toString('base64')}`);
  });

  it('sends no credentials when username is empty', async () => {
    const result = (await runStep('http.request', { url: base, username: '', password: 'ignored' })) as Result;
    expect(JSON.parse(result.body).auth).toBeNull();
  });

  it('sends the bytes of a Base64 body as they are', async () => {
    const bytes = Buffer.from([0, 255, 128, 10, 13, 0x89, 0x50, 0x4e, 0x47]);
    const result = (await runStep('http.request', { method: 'POST', url: base, encodedBody: bytes.toString('base64'), body: '' })) as Result;
    expect(JSON.parse(result.body)).toMatchObject({ hex: bytes.toString('hex'), length: String(bytes.length) });
  });

  it('refuses a body given both ways, and Base64 that is not', async () => {
    await expect(runStep('http.request', { method: 'POST', url: base, body: 'a', encodedBody: 'YQ==' })).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining('not both'),
    });
    await expect(runStep('http.request', { method: 'POST', url: base, encodedBody: 'not base64!' })).rejects.toThrow(/not valid Base64/);
  });

  it('returns no log unless asked', async () => {
    expect(await runStep('http.request', { url: base, debug: '' })).not.toHaveProperty('log');
  });

  it('logs the request as sent and the response as received, credentials hidden', async () => {
    const result = (await runStep('http.request', {
      method: 'PUT',
      url: `${base}/items?a=1`,
      query: { b: 'two words' },
      headers: { 'X-Trace': 'ü' },
      body: 'héllo\nworld',
      contentType: 'text/plain',
      username: 'u',
      password: 'secret-password',
      debug: 'TRUE',
    })) as Result;
    const log = result.log ?? '';
    expect(log).toMatch(/^> PUT \/items\?a=1&b=two\+words HTTP\/1\.1\n/);
    expect(log).toMatch(/\n> host: 127\.0\.0\.1:\d+\n/);
    expect(log).toContain('> content-length: 12');
    expect(log).toContain('> x-trace: ü');
    expect(log).toContain('> content-type: text/plain');
    expect(log).toContain('> authorization: Basic [hidden]');
    expect(log).toContain('>\n> héllo\n> world\n< HTTP/1.1 200 OK\n');
    expect(log).toContain('< set-cookie: [hidden]');
    expect(log).toContain(`< ${result.body}`);
    const sent = log.split('\n').filter((line) => line.startsWith('>'));
    expect(sent.join('\n')).not.toContain(Buffer.from('u:secret-password').toString('base64'));
  });

  it('counts binary bodies in the log instead of printing them', async () => {
    const result = (await runStep('http.request', {
      method: 'POST',
      url: base,
      encodedBody: Buffer.from([0, 1, 2, 255]).toString('base64'),
      debug: true,
    })) as Result;
    expect(result.log).toContain('> [4 bytes of binary data]');
  });
});
