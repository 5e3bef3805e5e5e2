import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// The interface as a well-behaved client sees it, in process: no worker, so runs stay queued.
const xml = new XMLParser({ parseTagValue: false, isArray: (name) => ['resource', 'input', 'output', 'execution'].includes(name) });
const ENCODE = '/choreos/Library/Utilities/Encoding/Base64Encode';
const encodeBody = (text: string) => JSON.stringify({ inputs: [{ name: 'Text', value: text }] });

describe('the interface in process: formats, negotiation and runs', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  async function runAsync(path = ENCODE, body = encodeBody('x')) {
    const res = await t.call('POST', `${path}?mode=async`, t.credentials.alice, { body });
    expect(res.status).toBe(202);
    return (await res.json()).id as string;
  }

  describe('content negotiation', () => {
    it.each([
      [undefined, 'application/json'],
      ['*/*', 'application/json'],
      ['application/json', 'application/json'],
      ['application/xml', 'application/xml'],
      ['text/xml', 'application/xml'],
      ['application/*', 'application/json'],
      ['application/json;q=0.5, application/xml', 'application/xml'],
      ['application/xml;q=0.2, application/json;q=0.9', 'application/json'],
      ['application/json;q=0, */*', 'application/xml'],
      ['text/html, application/xml;q=0.1', 'application/xml'],
      ['application/xml, */*', 'application/xml'],
      ['APPLICATION/XML; charset=utf-8', 'application/xml'],
    ])('Accept %s answers %s', async (accept, type) => {
      const res = await t.call('GET', '/choreos', t.credentials.alice, { accept: accept ?? '' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain(type);
      expect(res.headers.get('vary')).toBe('Accept');
    });
  });

  it('lists the Choreos with a leading slash, in JSON and XML', async () => {
    const json = await (await t.call('GET', '/choreos', t.credentials.alice)).json();
    expect(json.resources).toContain('/Library/Utilities/Encoding/Base64Encode');
    expect(json.resources.every((id: string) => id.startsWith('/'))).toBe(true);
    const res = await t.call('GET', '/choreos', t.credentials.alice, { accept: 'application/xml' });
    expect(xml.parse(await res.text()).resources.resource).toEqual(json.resources);
  });

  it('gives the details of a Choreo in JSON and XML', async () => {
    const json = await (await t.call('GET', ENCODE, t.credentials.alice)).json();
    expect(json).toEqual({
      valid: 'true',
      inputs: {
        Text: { description: 'The text to encode; required unless URL is given.', type: 'STRING_VARIABLE' },
        URL: {
          description: 'The URL of a file to encode instead of a text (fetched with GET; an answer other than 2xx fails the run).',
          type: 'STRING_VARIABLE',
        },
      },
      outputs: { Base64EncodedText: { description: 'The Base64 encoding of the text or of the file.', type: 'STRING_VARIABLE' } },
    });
    const res = await t.call('GET', ENCODE, t.credentials.alice, { accept: 'application/xml' });
    expect(xml.parse(await res.text()).choreo).toEqual({
      valid: 'true',
      inputs: {
        input: [
          { name: 'Text', description: 'The text to encode; required unless URL is given.', type: 'STRING_VARIABLE' },
          {
            name: 'URL',
            description: 'The URL of a file to encode instead of a text (fetched with GET; an answer other than 2xx fails the run).',
            type: 'STRING_VARIABLE',
          },
        ],
      },
      outputs: { output: [{ name: 'Base64EncodedText', description: 'The Base64 encoding of the text or of the file.', type: 'STRING_VARIABLE' }] },
    });
  });

  it('accepts a run with ?mode=async: 202, the id on top, Location, RUNNING with no host yet', async () => {
    const res = await t.call('POST', `${ENCODE}?mode=async&source_id=client-7&store_results=true`, t.credentials.alice, { body: encodeBody('hi') });
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body.id).toMatch(/^[0-9a-f]{32}$/);
    expect(body.execution).toMatchObject({ id: body.id, status: 'RUNNING', host: '', choreo: '/Library/Utilities/Encoding/Base64Encode' });
    expect(res.headers.get('location')).toBe(`/service-api/1.0/choreo-executions/${body.id}`);
    expect(res.headers.get('preference-applied')).toBe('respond-async');
    const record = await t.executions.get(body.id);
    expect(record).toMatchObject({ sourceId: 'client-7', storeResults: true, inputs: { Text: 'hi' }, account: 'acme' });
  });

  it('accepts a run with Prefer: respond-async, XML in and XML out', async () => {
    const res = await t.call('POST', ENCODE, t.credentials.alice, {
      accept: 'application/xml',
      headers: { prefer: 'wait=5, respond-async', 'content-type': 'application/xml' },
      body: '<?xml version="1.0"?><inputs><input><name>Text</name><value>caf&#233; &amp; co</value></input></inputs>',
    });
    expect(res.status).toBe(202);
    const execution = xml.parse(await res.text()).execution[0];
    expect(execution).toMatchObject({ status: 'RUNNING', host: '' });
    expect((await t.executions.get(execution.id))?.inputs).toEqual({ Text: 'café & co', URL: '' });
  });

  it('takes UTF-8 bodies exactly, after a byte order mark and with charset=UTF-8 declared', async () => {
    const text = 'café € 😀 \uFFFD';
    for (const [contentType, body] of [
      ['application/json; charset=UTF-8', `\uFEFF${encodeBody(text)}`],
      ['application/json;charset="utf-8"', encodeBody(text)],
      ['application/xml', `\uFEFF<?xml version="1.0" encoding="UTF-8"?><inputs><input><name>Text</name><value>${text}</value></input></inputs>`],
    ] as const) {
      const res = await t.call('POST', `${ENCODE}?mode=async`, t.credentials.alice, { body, headers: { 'content-type': contentType } });
      expect(res.status, contentType).toBe(202);
      expect((await t.executions.get((await res.json()).id))?.inputs, contentType).toEqual({ Text: text, URL: '' });
    }
  });

  it('answers a synchronous run still going when the wait ends with 202 and Location, and keeps it', async () => {
    const res = await t.call('POST', ENCODE, t.credentials.alice, { body: encodeBody('slow') });
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(res.headers.get('location')).toBe(`/service-api/1.0/choreo-executions/${body.id}`);
    expect(res.headers.get('preference-applied')).toBeNull();
    expect((await t.executions.get(body.id))?.status).toBe('RUNNING');
  });

  it('takes numbers as written and booleans as strings, ignores unknown inputs, and applies defaults', async () => {
    const id = await runAsync(
      '/choreos/Library/Utilities/Development/Countdown',
      JSON.stringify({
        inputs: [
          { name: 'StepMilliseconds', value: 250 },
          { name: 'Nope', value: true },
        ],
      }),
    );
    expect((await t.executions.get(id))?.inputs).toEqual({ StepMilliseconds: '250' });
    // A number is taken as it was written: parsed, it would lose digits, zeros or its value.
    for (const written of ['12.50', '12345678901234567890', '1e400', '-0', '1E-7']) {
      const exact = await runAsync(ENCODE, `{"inputs": [{"name": "Text", "value": ${written}}]}`);
      expect((await t.executions.get(exact))?.inputs).toEqual({ Text: written, URL: '' });
    }
    const flag = await runAsync(ENCODE, '{"inputs": [{"name": "Text", "value": false}]}');
    expect((await t.executions.get(flag))?.inputs).toEqual({ Text: 'false', URL: '' });
    const defaulted = await runAsync('/choreos/Library/Utilities/Development/Countdown', '');
    expect((await t.executions.get(defaulted))?.inputs).toEqual({ StepMilliseconds: '500' });
  });

  it('runs with an empty body whatever its Content-Type', async () => {
    const res = await t.call('POST', '/choreos/Library/Utilities/Development/Countdown?mode=async', t.credentials.alice, {
      body: '  \n',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(202);
  });

  it('shows the status of an execution in JSON and XML, with outputs on ?view=outputs', async () => {
    const id = await runAsync();
    const running = await (await t.call('GET', `/choreo-executions/${id}`, t.credentials.alice)).json();
    expect(running).toEqual({
      execution: {
        id,
        choreo: '/Library/Utilities/Encoding/Base64Encode',
        starttime: expect.stringMatching(/^\d+$/),
        endtime: '',
        host: '',
        status: 'RUNNING',
      },
    });

    await t.executions.end(id, { status: 'SUCCESS', outputs: { Base64EncodedText: 'eA==' } });
    const done = await (await t.call('GET', `/choreo-executions/${id}?view=outputs`, t.credentials.alice)).json();
    expect(done.output).toEqual({ Base64EncodedText: 'eA==' });
    expect(done.execution).toMatchObject({ id, status: 'SUCCESS', endtime: expect.stringMatching(/^\d+$/) });
    expect(done.execution.lasterror).toBeUndefined();

    const xmlRes = await t.call('GET', `/choreo-executions/${id}?view=outputs`, t.credentials.alice, { accept: 'application/xml' });
    expect(xmlRes.headers.get('content-type')).toContain('application/xml');
    const execution = xml.parse(await xmlRes.text()).execution[0];
    expect(execution).toMatchObject({ id, status: 'SUCCESS', choreo: '/Library/Utilities/Encoding/Base64Encode' });
    expect(execution.outputs.output).toEqual([{ name: 'Base64EncodedText', value: 'eA==' }]);
    const plain = xml.parse(await (await t.call('GET', `/choreo-executions/${id}`, t.credentials.alice, { accept: 'application/xml' })).text());
    expect(plain.execution[0].outputs).toBeUndefined();
  });

  it('adds lasterror and errortime to an ERROR execution', async () => {
    const id = await runAsync();
    await t.executions.end(id, { status: 'ERROR', error: 'it broke', now: 1_700_000_000_000 });
    const { execution } = await (await t.call('GET', `/choreo-executions/${id}`, t.credentials.alice)).json();
    expect(execution).toMatchObject({ status: 'ERROR', lasterror: 'it broke', errortime: '1700000000000', endtime: '1700000000000' });
  });

  it('lists only RUNNING executions, in JSON and XML', async () => {
    const running = await runAsync();
    const ended = await runAsync();
    await t.executions.end(ended, { status: 'SUCCESS' });
    const { executions } = await (await t.call('GET', '/choreo-executions', t.credentials.alice)).json();
    const ids = executions.map((e: { id: string }) => e.id);
    expect(ids).toContain(running);
    expect(ids).not.toContain(ended);
    expect(executions.find((e: { id: string }) => e.id === running)).toEqual({
      id: running,
      choreo: '/Library/Utilities/Encoding/Base64Encode',
      starttime: expect.stringMatching(/^\d+$/),
      host: '',
      status: 'RUNNING',
    });
    const parsed = xml.parse(await (await t.call('GET', '/choreo-executions', t.credentials.alice, { accept: 'application/xml' })).text());
    expect(parsed.executions.execution.map((e: { id: string }) => e.id)).toEqual(ids);
  });

  it('terminates a queued execution at once, again with 204, and refuses an ended one with 409', async () => {
    const id = await runAsync();
    const res = await t.call('DELETE', `/choreo-executions/${id}`, t.credentials.alice);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect((await t.executions.get(id))?.status).toBe('TERMINATED_MANUALLY');
    expect((await t.call('DELETE', `/choreo-executions/${id}`, t.credentials.alice)).status).toBe(204);

    const done = await runAsync();
    await t.executions.end(done, { status: 'SUCCESS' });
    const conflict = await t.call('DELETE', `/choreo-executions/${done}`, t.credentials.alice, { accept: 'application/xml' });
    expect(conflict.status).toBe(409);
    expect(xml.parse(await conflict.text()).error.code).toBe('CONFLICT');
  });

  it('accepts the domain header without its leading slash, and in another case', async () => {
    for (const domain of ['acme/master', '/ACME/master', ' /acme/master/ ']) {
      const res = await t.call('GET', '/choreos', t.credentials.alice, { headers: { 'x-service-domain': domain } });
      expect(res.status, domain).toBe(200);
    }
  });

  it('echoes a sane X-Request-Id and makes one otherwise; HSTS on every response', async () => {
    const given = await t.call('GET', '/choreos', t.credentials.alice, { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await t.call('GET', '/choreos', t.credentials.alice, { headers: { 'x-request-id': 'bad id\u00e9' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    // The health answer is made by the route itself, the others by respond(): both get the headers.
    for (const res of [given, await t.app.request('/healthz'), await t.app.request('/nowhere')]) {
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it('answers /healthz and /readyz without credentials', async () => {
    expect(await (await t.app.request('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', redis: 'up' });
  });
});
