import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode } from './errors/error-catalogue.ts';
import { errorBody } from './formats/representations.ts';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// Error bodies as the original's SDKs read them, for every status: `error.message` (Node, Python,
// PHP, iOS) and the text pattern the Ruby SDK tells a service error by.
const RUBY_SDK_ERROR = /\{"error":\{"message":"[^}]+"\}\}/;

function expectSdkReadable(text: string, status: number) {
  const body = JSON.parse(text);
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error)[0]).toBe('message');
  expect(body.error.message).toEqual(expect.any(String));
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(ERROR_CATALOGUE[body.error.code as ErrorCode].status).toBe(status);
  expect(text, text).toMatch(RUBY_SDK_ERROR);
  // Ruby reads the message from the matched body as JSON: it must be the same one.
  expect(JSON.parse(text.match(RUBY_SDK_ERROR)?.[0] ?? '').error.message).toBe(body.error.message);
  return body.error as { message: string; code: string; requestId: string };
}

describe('errorBody', () => {
  it.each(Object.keys(ERROR_CATALOGUE) as ErrorCode[])('writes %s so that every SDK reads its message', (code) => {
    const message = `${ERROR_CATALOGUE[code].message} {"inputs": [{"name": "A"}]} – é ☺ \\ "quoted"`;
    const body = errorBody(code, message, 'r-1');
    const text = body.jsonText ?? '';
    expect(JSON.parse(text)).toEqual(body.json);
    expect(JSON.parse(text)).toEqual({ error: { message, code, requestId: 'r-1' } });
    expectSdkReadable(text, ERROR_CATALOGUE[code].status);
  });

  it('reads an empty request id too', () => {
    const text = errorBody('NOT_FOUND', 'No such Choreo.', '').jsonText ?? '';
    expect(expectSdkReadable(text, 404)).toEqual({ message: 'No such Choreo.', code: 'NOT_FOUND', requestId: '' });
  });
});

describe('error bodies of the app, status by status', () => {
  let t: InProcessApp;
  let proxied: InProcessApp;
  let catalogueDir: string;

  beforeAll(async () => {
    catalogueDir = mkdtempSync(join(tmpdir(), 'ces-error-bodies-'));
    mkdirSync(join(catalogueDir, 'Test'));
    const definition = (kind: string, inputs = {}) => ({ description: 'x', inputs, outputs: {}, steps: [{ id: 's', kind, args: { milliseconds: '1' } }] });
    writeFileSync(join(catalogueDir, 'Test', 'Ok.json'), JSON.stringify(definition('control.wait')));
    writeFileSync(join(catalogueDir, 'Test', 'Broken.json'), JSON.stringify(definition('no.such-kind')));
    writeFileSync(
      join(catalogueDir, 'Test', 'Needs.json'),
      JSON.stringify(definition('control.wait', { A: { description: 'a', type: 'STRING_VARIABLE', required: true } })),
    );
    t = await startInProcessApp({ redisUrl: inject('redisUrl'), catalogueDir, maxRunningPerAccount: 1, config: { bodyLimitBytes: 1024 } });
    proxied = await startInProcessApp({ redisUrl: inject('redisUrl'), catalogueDir, config: { trustProxy: true } });
  });

  afterAll(async () => {
    await t?.close();
    await proxied?.close();
    if (catalogueDir) rmSync(catalogueDir, { recursive: true, force: true });
  });

  async function expectStatus(res: Response, status: number) {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    const error = expectSdkReadable(text, status);
    expect(error.requestId).toBe(res.headers.get('x-request-id'));
    return error.message;
  }

  it('400: a missing required input, a body that does not parse, a bad preset', async () => {
    const alice = t.credentials.alice;
    expect(await expectStatus(await t.call('POST', '/choreos/Test/Needs', alice, { body: '{}' }), 400)).toMatch(/A/);
    // The body's own text in the message has braces: still recognised.
    await expectStatus(await t.call('POST', '/choreos/Test/Needs', alice, { body: '{"inputs": {"name": "A"}}' }), 400);
    await expectStatus(await t.call('POST', '/choreos/Test/Needs', alice, { body: '{"inputs": [' }), 400);
    await expectStatus(await t.call('POST', '/choreos/Test/Needs', alice, { body: '{"preset": 7}' }), 400);
  });

  it('401: wrong credentials', async () => {
    await expectStatus(await t.call('GET', '/choreos', { ...t.credentials.alice, secret: 'wrong' }), 401);
    await expectStatus(await t.call('GET', '/choreos', undefined, { headers: { 'x-service-domain': 'acme/master' } }), 401);
  });

  it('403: plain HTTP behind a proxy', async () => {
    await expectStatus(await proxied.call('GET', '/choreos', proxied.credentials.alice), 403);
  });

  it('404: an unknown Choreo, execution, path or preset', async () => {
    const alice = t.credentials.alice;
    const running = await t.executions.listRunning('acme');
    expect(await expectStatus(await t.call('POST', '/choreos/Test/Nope', alice, { body: '{}' }), 404)).toBe('No such Choreo.');
    await expectStatus(await t.call('GET', `/choreo-executions/${'0'.repeat(32)}`, alice), 404);
    await expectStatus(await t.call('GET', '/nothing/here', alice), 404);
    expect(await expectStatus(await t.call('POST', '/choreos/Test/Ok', alice, { body: '{"preset": "My {Twitter} keys"}' }), 404)).toBe(
      'preset "My {Twitter} keys" does not exist',
    );
    // Never ignored: in XML too, and before the inputs a preset could hold are found missing.
    const xmlPreset = await t.call('POST', '/choreos/Test/Needs', alice, {
      body: '<inputs><preset>keys</preset></inputs>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(await expectStatus(xmlPreset, 404)).toBe('preset "keys" does not exist');
    // An unknown Choreo is said first.
    expect(await expectStatus(await t.call('POST', '/choreos/Test/Nope', alice, { body: '{"preset": "keys"}' }), 404)).toBe('No such Choreo.');
    // Nothing was started by any of them.
    expect(await t.executions.listRunning('acme')).toEqual(running);
  });

  it('405, 406, 409, 413, 415', async () => {
    const alice = t.credentials.alice;
    await expectStatus(await t.call('PATCH', '/choreos/Test/Ok', alice), 405);
    await expectStatus(await t.call('GET', '/choreos', alice, { accept: 'text/html' }), 406);
    await expectStatus(await t.call('POST', '/choreos/Test/Broken', alice, { body: '{}' }), 409);
    await expectStatus(await t.call('POST', '/choreos/Test/Ok', alice, { body: JSON.stringify({ inputs: [{ name: 'x', value: 'y'.repeat(2000) }] }) }), 413);
    await expectStatus(await t.call('POST', '/choreos/Test/Ok', alice, { body: 'A=1', headers: { 'content-type': 'text/plain' } }), 415);
  });

  it('429: past the quota of running executions', async () => {
    const bob = t.credentials.bob;
    const first = await t.call('POST', '/choreos/Test/Ok?mode=async', bob);
    expect(first.status).toBe(202);
    await expectStatus(await t.call('POST', '/choreos/Test/Ok?mode=async', bob), 429);
    expect((await t.call('DELETE', `/choreo-executions/${(await first.json()).id}`, bob)).status).toBe(204);
  });

  it('500: an unexpected failure', async () => {
    const res = await t.call('POST', '/choreos/Test/Ok?mode=async', t.credentials.alice);
    const { id } = await res.json();
    await t.redis.set(t.keys.execution(id), 'not a hash');
    try {
      await expectStatus(await t.call('GET', `/choreo-executions/${id}`, t.credentials.alice), 500);
    } finally {
      await t.redis.multi().del(t.keys.execution(id)).zrem(t.keys.running(), id).srem(t.keys.accountRunning('acme'), id).exec();
    }
  });
});
