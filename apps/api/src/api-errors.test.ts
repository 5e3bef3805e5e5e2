import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ERROR_CATALOGUE } from './errors/error-catalogue.ts';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// Refused requests, in process: every one a 4xx from the catalogue, in the negotiated format.
const xml = new XMLParser({ parseTagValue: false });
const NEEDS = '/choreos/Test/Needs';

async function expectError(res: Response, status: number, code: string) {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body = JSON.parse(text);
  expect(body.error).toEqual({ code, message: expect.any(String), requestId: res.headers.get('x-request-id') });
  expect(ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].status).toBe(status);
  return body.error.message as string;
}

describe('refused requests in process', () => {
  let t: InProcessApp;
  let catalogueDir: string;

  beforeAll(async () => {
    // A catalogue of its own: one valid Choreo and one whose step kind does not exist.
    catalogueDir = mkdtempSync(join(tmpdir(), 'ces-api-errors-'));
    mkdirSync(join(catalogueDir, 'Test'));
    const step = (kind: string) => ({ description: 'x', inputs: {}, outputs: {}, steps: [{ id: 's', kind, args: { milliseconds: '1' } }] });
    writeFileSync(join(catalogueDir, 'Test', 'Ok.json'), JSON.stringify(step('control.wait')));
    writeFileSync(join(catalogueDir, 'Test', 'Broken.json'), JSON.stringify(step('no.such-kind')));
    writeFileSync(
      join(catalogueDir, 'Test', 'Needs.json'),
      JSON.stringify({
        description: 'x',
        inputs: { A: { description: 'a', type: 'STRING_VARIABLE', required: true }, B: { description: 'b', type: 'STRING_VARIABLE', default: 'b' } },
        outputs: {},
        steps: [{ id: 's', kind: 'control.wait', args: { milliseconds: '1' } }],
      }),
    );
    t = await startInProcessApp({ redisUrl: inject('redisUrl'), catalogueDir, maxRunningPerAccount: 2 });
  });

  afterAll(async () => {
    await t?.close();
    if (catalogueDir) rmSync(catalogueDir, { recursive: true, force: true });
  });

  const post = (path: string, body: string, contentType = 'application/json', accept = 'application/json') =>
    t.call('POST', path, t.credentials.alice, { body, accept, headers: { 'content-type': contentType } });

  it('answers unknown paths with 404, inside and outside the interface', async () => {
    await expectError(await t.call('GET', '/nothing', t.credentials.alice), 404, 'NOT_FOUND');
    await expectError(await t.app.request('/service-api/2.0/choreos'), 404, 'NOT_FOUND');
    await expectError(await t.call('GET', '/choreos/', t.credentials.alice), 404, 'NOT_FOUND');
    await expectError(await t.call('GET', '/choreo-executions/', t.credentials.alice), 404, 'NOT_FOUND');
    await expectError(await t.call('GET', '/choreo-executions/a/b', t.credentials.alice), 404, 'NOT_FOUND');
  });

  it.each([
    ['DELETE', '/choreos', 'GET'],
    ['POST', '/choreos', 'GET'],
    ['PATCH', '/choreos/Test/Ok', 'GET, POST, PUT, DELETE'],
    ['POST', '/choreo-executions', 'GET'],
    ['POST', '/choreo-executions/0123456789abcdef0123456789abcdef', 'GET, DELETE'],
    ['PATCH', '/choreo-executions/0123456789abcdef0123456789abcdef', 'GET, DELETE'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const res = await t.call(method, path, t.credentials.alice);
    await expectError(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.get('allow')).toBe(allow);
  });

  it('answers 406, in JSON, when no acceptable format can be produced', async () => {
    for (const accept of ['text/html', 'application/json;q=0, application/xml;q=0', 'image/*', 'application/json;q=7']) {
      const res = await t.call('GET', '/choreos', t.credentials.alice, { accept });
      await expectError(res, 406, 'NOT_ACCEPTABLE');
      expect(res.headers.get('content-type')).toContain('application/json');
    }
  });

  it('renders errors in XML when XML is negotiated', async () => {
    const res = await t.call('GET', '/choreos/Nope', t.credentials.alice, { accept: 'application/xml' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/xml');
    expect(xml.parse(await res.text()).error).toEqual({ code: 'NOT_FOUND', message: 'No such Choreo.', requestId: res.headers.get('x-request-id') });
  });

  it('answers 415 to a non-empty body that is not JSON or XML as Content-Type says', async () => {
    await expectError(await post(NEEDS, 'Text=x', 'application/x-www-form-urlencoded'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    await expectError(await post(NEEDS, '{"inputs": []}', 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const noType = await t.app.request(`/service-api/1.0${NEEDS}`, {
      method: 'POST',
      body: new TextEncoder().encode('{"inputs": []}'),
      headers: {
        authorization: `Basic ${Buffer.from(`alice:${t.credentials.alice.secret}`).toString('base64')}`,
        'x-service-domain': '/acme/master',
      },
    });
    await expectError(noType, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it.each([
    ['truncated JSON', '{"inputs": [{"name": "A", "val', 'application/json'],
    ['JSON that is a list', '[{"name": "A", "value": "x"}]', 'application/json'],
    ['JSON that is a string', '"x"', 'application/json'],
    ['inputs not a list', '{"inputs": {"A": "x"}}', 'application/json'],
    ['an input that is not an object', '{"inputs": ["A"]}', 'application/json'],
    ['an input without a name', '{"inputs": [{"value": "x"}]}', 'application/json'],
    ['an input without a value', '{"inputs": [{"name": "A"}]}', 'application/json'],
    ['a null value', '{"inputs": [{"name": "A", "value": null}]}', 'application/json'],
    ['an object value', '{"inputs": [{"name": "A", "value": {"x": 1}}]}', 'application/json'],
    ['an array value', '{"inputs": [{"name": "A", "value": ["x"]}]}', 'application/json'],
    ['an empty name', '{"inputs": [{"name": "", "value": "x"}]}', 'application/json'],
    ['a name too long', `{"inputs": [{"name": "${'n'.repeat(300)}", "value": "x"}]}`, 'application/json'],
    ['an input given twice (JSON)', '{"inputs": [{"name": "A", "value": "1"}, {"name": "A", "value": "2"}]}', 'application/json'],
    [
      'an input given twice (XML)',
      '<inputs><input><name>A</name><value>1</value></input><input><name>A</name><value>1</value></input></inputs>',
      'application/xml',
    ],
    ['truncated XML', '<inputs><input><name>A</name><value>x</va', 'application/xml'],
    ['XML with the wrong root', '<input><name>A</name><value>x</value></input>', 'application/xml'],
    ['XML with two roots', '<inputs></inputs><inputs></inputs>', 'application/xml'],
    ['XML input without a value', '<inputs><input><name>A</name></input></inputs>', 'application/xml'],
    ['XML value with child elements', '<inputs><input><name>A</name><value><b>x</b></value></input></inputs>', 'application/xml'],
    ['JSON sent as XML', '{"inputs": []}', 'application/xml'],
    ['XML sent as JSON', '<inputs/>', 'application/json'],
  ])('answers 400 to %s', async (_label, body, contentType) => {
    await expectError(await post('/choreos/Test/Needs', body, contentType), 400, 'BAD_REQUEST');
  });

  it('refuses XML with a DTD or entity declarations, and an entity bomb', async () => {
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
      '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><inputs><input><name>A</name><value>&lol3;</value></input></inputs>';
    const message = await expectError(await post('/choreos/Test/Needs', bomb, 'application/xml'), 400, 'BAD_REQUEST');
    expect(message).toMatch(/DOCTYPE/);
    const external = '<?xml version="1.0"?><!DOCTYPE x SYSTEM "file:///etc/passwd"><inputs/>';
    await expectError(await post('/choreos/Test/Needs', external, 'application/xml'), 400, 'BAD_REQUEST');
  });

  it('refuses more output filters than allowed, or one with an empty or overlong path or variable', async () => {
    const filters = (count: number, path = '$.a', variable = 'JSON') =>
      JSON.stringify({ inputs: [], outputFilters: Array.from({ length: count }, (_, i) => ({ name: `f${i}`, path, variable })) });
    expect(await expectError(await post('/choreos/Test/Needs', filters(21), 'application/json'), 400, 'BAD_REQUEST')).toMatch(/At most 20 output filters/);
    expect(await expectError(await post('/choreos/Test/Needs', filters(1, '$'.repeat(1001)), 'application/json'), 400, 'BAD_REQUEST')).toMatch(
      /path of 1 to 1000/,
    );
    expect(await expectError(await post('/choreos/Test/Needs', filters(1, ''), 'application/json'), 400, 'BAD_REQUEST')).toMatch(/path of 1 to 1000/);
    expect(await expectError(await post('/choreos/Test/Needs', filters(1, '$.a', 'v'.repeat(300)), 'application/json'), 400, 'BAD_REQUEST')).toMatch(
      /variable/,
    );
    const xml = `<inputs><outputFilters>${Array.from({ length: 21 }, (_, i) => `<filter><name>f${i}</name><path>/a</path><variable>X</variable></filter>`).join('')}</outputFilters></inputs>`;
    expect(await expectError(await post('/choreos/Test/Needs', xml, 'application/xml'), 400, 'BAD_REQUEST')).toMatch(/At most 20 output filters/);
  });

  it('refuses XML nested too deep or with too many elements', async () => {
    const deep = `<inputs>${'<a>'.repeat(100)}${'</a>'.repeat(100)}</inputs>`;
    expect(await expectError(await post('/choreos/Test/Needs', deep, 'application/xml'), 400, 'BAD_REQUEST')).toMatch(/deeper/);
    const wide = `<inputs>${'<x/>'.repeat(20_000)}</inputs>`;
    expect(await expectError(await post('/choreos/Test/Needs', wide, 'application/xml'), 400, 'BAD_REQUEST')).toMatch(/elements/);
  });

  it('answers 400 for a missing required input before anything is recorded', async () => {
    const before = await t.executions.countRunning('acme');
    const message = await expectError(await post('/choreos/Test/Needs?mode=async', '{"inputs": [{"name": "B", "value": "x"}]}'), 400, 'BAD_REQUEST');
    expect(message).toContain('A');
    await expectError(await post('/choreos/Test/Needs?mode=async', ''), 400, 'BAD_REQUEST');
    expect(await t.executions.countRunning('acme')).toBe(before);
  });

  it('answers 400 to a bad mode, view or source_id', async () => {
    await expectError(await post('/choreos/Test/Ok?mode=later', ''), 400, 'BAD_REQUEST');
    await expectError(await post(`/choreos/Test/Ok?mode=async&source_id=${'s'.repeat(300)}`, ''), 400, 'BAD_REQUEST');
    await expectError(await post('/choreos/Test/Ok?mode=async&source_id=a%0Ab', ''), 400, 'BAD_REQUEST');
    await expectError(await t.call('GET', '/choreo-executions/0123456789abcdef0123456789abcdef?view=all', t.credentials.alice), 400, 'BAD_REQUEST');
  });

  const postBytes = (path: string, body: Uint8Array<ArrayBuffer>, contentType: string) =>
    t.app.request(`/service-api/1.0${path}`, {
      method: 'POST',
      body,
      headers: {
        authorization: `Basic ${Buffer.from(`alice:${t.credentials.alice.secret}`).toString('base64')}`,
        'x-service-domain': '/acme/master',
        'content-type': contentType,
      },
    });
  const concat = (...parts: (string | number[])[]) =>
    new Uint8Array(Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part)))));

  it('answers 400 to a body that is not UTF-8, where its bytes were run as U+FFFD', async () => {
    const before = await t.executions.countRunning('acme');
    const json = concat('{"inputs": [{"name": "A", "value": "', [0xff, 0xfe, 0xc0], '"}]}');
    expect(await expectError(await postBytes(`${NEEDS}?mode=async`, json, 'application/json'), 400, 'BAD_REQUEST')).toBe('The body is not valid UTF-8 text.');
    const xmlBody = concat('<inputs><input><name>A</name><value>caf', [0xe9], '</value></input></inputs>');
    expect(await expectError(await postBytes(`${NEEDS}?mode=async`, xmlBody, 'application/xml'), 400, 'BAD_REQUEST')).toBe('The body is not valid UTF-8 text.');
    expect(await t.executions.countRunning('acme')).toBe(before);
  });

  it('answers 415 to a body in another charset than UTF-8, by Content-Type or XML declaration', async () => {
    const before = await t.executions.countRunning('acme');
    const json = concat('{"inputs": [{"name": "A", "value": "x"}]}');
    for (const contentType of ['application/json; charset=iso-8859-1', 'application/json;charset="Windows-1252"']) {
      expect(await expectError(await postBytes(`${NEEDS}?mode=async`, json, contentType), 415, 'UNSUPPORTED_MEDIA_TYPE'), contentType).toContain('UTF-8');
    }
    const latin1 = concat('<?xml version="1.0" encoding="ISO-8859-1"?><inputs><input><name>A</name><value>caf', [0xe9], '</value></input></inputs>');
    expect(await expectError(await postBytes(`${NEEDS}?mode=async`, latin1, 'application/xml'), 415, 'UNSUPPORTED_MEDIA_TYPE')).toContain('UTF-8');
    expect(await expectError(await postBytes(`${NEEDS}?mode=async`, latin1, 'application/xml; charset=iso-8859-1'), 415, 'UNSUPPORTED_MEDIA_TYPE')).toContain(
      'UTF-8',
    );
    expect(await t.executions.countRunning('acme')).toBe(before);
  });

  it('answers 413 to a body over the limit, with or without Content-Length', async () => {
    const big = JSON.stringify({ inputs: [{ name: 'A', value: 'x'.repeat(1024 * 1024) }] });
    await expectError(await post('/choreos/Test/Needs', big), 413, 'PAYLOAD_TOO_LARGE');
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i += 1) controller.enqueue(new Uint8Array(128 * 1024).fill(32));
        controller.close();
      },
    });
    const res = await t.app.request(`/service-api/1.0/choreos/Test/Needs`, {
      method: 'POST',
      body: streamed,
      duplex: 'half',
      headers: {
        authorization: `Basic ${Buffer.from(`alice:${t.credentials.alice.secret}`).toString('base64')}`,
        'x-service-domain': '/acme/master',
        'content-type': 'application/json',
      },
    } as RequestInit);
    await expectError(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('refuses to run an invalid Choreo with 409 but lists it as valid "false"', async () => {
    const details = await (await t.call('GET', '/choreos/Test/Broken', t.credentials.alice)).json();
    expect(details.valid).toBe('false');
    await expectError(await post('/choreos/Test/Broken', ''), 409, 'CONFLICT');
  });

  it('answers 404 for an unknown, malformed or very long execution id', async () => {
    for (const id of ['0123456789abcdef0123456789abcdef', 'ABCDEF0123456789abcdef0123456789', 'x', '0'.repeat(5000)]) {
      await expectError(await t.call('GET', `/choreo-executions/${id}`, t.credentials.alice), 404, 'NOT_FOUND');
      await expectError(await t.call('DELETE', `/choreo-executions/${id}`, t.credentials.alice), 404, 'NOT_FOUND');
    }
    await expectError(await t.call('GET', `/choreos/${'a/'.repeat(2000)}b`, t.credentials.alice), 404, 'NOT_FOUND');
  });

  it('answers 429 with Retry-After past the quota of running executions, and accepts again once one ends', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const res = await t.call('POST', '/choreos/Test/Ok?mode=async', t.credentials.bob);
      expect(res.status).toBe(202);
      ids.push((await res.json()).id);
    }
    const refused = await t.call('POST', '/choreos/Test/Ok?mode=async', t.credentials.bob);
    await expectError(refused, 429, 'TOO_MANY_REQUESTS');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.call('DELETE', `/choreo-executions/${ids[0]}`, t.credentials.bob)).status).toBe(204);
    expect((await t.call('POST', '/choreos/Test/Ok?mode=async', t.credentials.bob)).status).toBe(202);
  });

  it("answers 429 with Retry-After once an account's executions have stored its budget of bytes, and no other account", async () => {
    const budgeted = await startInProcessApp({ redisUrl: inject('redisUrl'), maxStoredBytesPerAccount: 8_000 });
    try {
      const encode = (text: string) => ({ body: JSON.stringify({ inputs: [{ name: 'Text', value: text }] }) });
      const path = '/choreos/Library/Utilities/Encoding/Base64Encode?mode=async';
      expect((await budgeted.call('POST', path, budgeted.credentials.alice, encode('x'.repeat(5_000)))).status).toBe(202);
      const refused = await budgeted.call('POST', path, budgeted.credentials.alice, encode('x'.repeat(5_000)));
      await expectError(refused, 429, 'TOO_MANY_REQUESTS');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const refusedXml = await budgeted.call('POST', path, budgeted.credentials.alice, { ...encode('x'.repeat(5_000)), accept: 'application/xml' });
      expect(refusedXml.status).toBe(429);
      expect(await refusedXml.text()).toContain('<message>The executions of this account have stored all it may keep over the retention period.</message>');
      // A small run still fits; another account has its own budget.
      expect((await budgeted.call('POST', path, budgeted.credentials.alice, encode('x'))).status).toBe(202);
      expect((await budgeted.call('POST', path, budgeted.credentials.bob, encode('x'.repeat(5_000)))).status).toBe(202);
      // The refused runs left neither a record nor a job behind.
      expect(await budgeted.redis.scard(budgeted.keys.accountRunning('acme'))).toBe(2);
      const records: string[] = [];
      let cursor = '0';
      do {
        const [next, found] = await budgeted.redis.scan(cursor, 'MATCH', budgeted.keys.execution('*'), 'COUNT', 1000);
        records.push(...found);
        cursor = next;
      } while (cursor !== '0');
      expect(records).toHaveLength(3);
      expect(await budgeted.queue.getJobCounts('wait', 'prioritized', 'delayed')).toEqual({ wait: 3, prioritized: 0, delayed: 0 });
      // A run larger than the whole budget would never fit: 413, not a 429 to retry.
      const larger = await budgeted.call('POST', path, budgeted.credentials.bob, encode('x'.repeat(9_000)));
      await expectError(larger, 413, 'PAYLOAD_TOO_LARGE');
      expect(larger.headers.get('retry-after')).toBeNull();
    } finally {
      await budgeted.close();
    }
  });

  it('answers an unexpected failure with 500 and nothing of its internals', async () => {
    const res = await post('/choreos/Test/Ok?mode=async', '');
    const { id } = await res.json();
    // A record of the wrong Redis type makes every read of it fail, as a real fault would.
    await t.redis.set(t.keys.execution(id), 'not a hash');
    try {
      for (const accept of ['application/json', 'application/xml']) {
        const failed = await t.call('GET', `/choreo-executions/${id}`, t.credentials.alice, { accept });
        expect(failed.status).toBe(500);
        const text = await failed.text();
        expect(text).toContain('INTERNAL_ERROR');
        expect(text).toContain(failed.headers.get('x-request-id'));
        expect(text).not.toMatch(/WRONGTYPE|redis|hgetall|\.ts|at /i);
      }
    } finally {
      await t.redis.multi().del(t.keys.execution(id)).zrem(t.keys.running(), id).srem(t.keys.accountRunning('acme'), id).exec();
    }
  });
});
