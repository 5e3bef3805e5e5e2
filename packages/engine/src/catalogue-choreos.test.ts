import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindInputs, createStepLibrary, loadCatalogue } from '@ces/choreos';
import type { Catalogue } from '@ces/choreos';
import { runChoreo } from './run-choreo.ts';
import type { EngineHooks, RunOutcome } from './run-choreo.ts';

/** Every Choreo of the checked-in catalogue, run through the engine with the real step library. */

interface Case {
  inputs: Record<string, string>;
  outputs?: Record<string, unknown>;
  error?: RegExp;
}

let server: Server;
let base = '';
let catalogue: Catalogue;
const steps = createStepLibrary({ http: { allowPrivateNetworks: true, timeoutMs: 5000, maxResponseBytes: 1024 * 1024 } });
const noHooks: EngineHooks = { beforeStep: () => undefined, afterStep: async () => undefined };

const xml = '<catalog><book id="b1"><title>Dune</title></book><book id="b2"><title>Emma</title></book></catalog>';

function cases(): Record<string, Case> {
  const echo = (method: string, body: string, contentType: string | null) => JSON.stringify({ method, path: '/echo', auth: 'Bearer t', contentType, body });
  const http = (method: string, body: string, contentType: string | null): Case => ({
    inputs: { URL: `${base}/echo`, RequestHeaders: '{"Authorization":"Bearer t"}', ...(body === '' ? {} : { Body: body }) },
    outputs: { Response: echo(method, body, contentType), ResponseStatusCode: '200', ResponseHeaders: expect.stringContaining('"x-test":"yes"') },
  });
  return {
    'DataConversions/CSVToJSON': { inputs: { CSV: 'a,b\n1,"x,y"\n' }, outputs: { JSON: '[{"a":"1","b":"x,y"}]', RowCount: '1' } },
    'DataConversions/JSONToXML': { inputs: { JSON: '{"name":"a&b","n":1}' }, outputs: { XML: '<root><name>a&amp;b</name><n>1</n></root>' } },
    'DataConversions/XMLToJSON': { inputs: { XML: '<a x="1"><b>2</b></a>' }, outputs: { JSON: '{"a":{"b":"2","@x":"1"}}' } },
    'Dates/AddToDate': {
      inputs: { Date: '2024-01-31T00:00:00Z', Amount: '1' },
      outputs: { ISO8601: '2024-02-01T00:00:00.000Z', EpochMilliseconds: '1706745600000' },
    },
    'Dates/FormatDate': { inputs: { Date: '0', Format: 'yyyy-MM-dd HH:mm', TimeZone: 'Asia/Kolkata' }, outputs: { FormattedDate: '1970-01-01 05:30' } },
    'Dates/GetCurrentTime': {
      inputs: {},
      outputs: {
        EpochMilliseconds: expect.stringMatching(/^\d{13}$/),
        EpochSeconds: expect.stringMatching(/^\d{10}$/),
        ISO8601: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    },
    'Dates/ParseDate': {
      inputs: { Date: 'Tue, 14 Nov 2023 22:13:20 GMT' },
      outputs: { EpochMilliseconds: '1700000000000', ISO8601: '2023-11-14T22:13:20.000Z' },
    },
    'Development/Countdown': { inputs: { StepMilliseconds: '1' }, outputs: { CompletedSteps: '10' } },
    'Development/Echo': { inputs: { Message: 'hi' }, outputs: { JSON: expect.stringMatching(/^\{"message":"hi","receivedAt":"\d{4}-.+Z"\}$/), Message: 'hi' } },
    'Development/Fail': { inputs: { Message: 'as planned' }, error: /^fail: as planned$/ },
    'Development/NoOpSteps': { inputs: {}, outputs: { CompletedSteps: '50' } },
    'Development/Wait': { inputs: { Milliseconds: '1' }, outputs: { WaitedMilliseconds: '1' } },
    'Encoding/Base64Decode': { inputs: { Base64EncodedText: 'aMOpbGxv' }, outputs: { Text: 'héllo' } },
    'Encoding/Base64Encode': { inputs: { Text: 'héllo' }, outputs: { Base64EncodedText: 'aMOpbGxv' } },
    'Encoding/Base64URLDecode': { inputs: { Base64URLEncodedText: 'Pz8-' }, outputs: { Text: '??>' } },
    'Encoding/Base64URLEncode': { inputs: { Text: '??>' }, outputs: { Base64URLEncodedText: 'Pz8-' } },
    'Encoding/HTMLEscape': { inputs: { Text: '<b>&' }, outputs: { EscapedHTML: '&lt;b&gt;&amp;' } },
    'Encoding/HTMLUnescape': { inputs: { EscapedHTML: '&lt;b&gt;&amp;&#233;' }, outputs: { Text: '<b>&é' } },
    'Encoding/HexDecode': { inputs: { HexEncodedText: '6869' }, outputs: { Text: 'hi' } },
    'Encoding/HexEncode': { inputs: { Text: 'hi' }, outputs: { HexEncodedText: '6869' } },
    'Encoding/URLDecode': { inputs: { URLEncodedText: 'a%20b%26c' }, outputs: { Text: 'a b&c' } },
    'Encoding/URLEncode': { inputs: { Text: 'a b&c' }, outputs: { URLEncodedText: 'a%20b%26c' } },
    'HTTP/Delete': http('DELETE', '', null),
    'HTTP/Get': http('GET', '', null),
    'HTTP/Post': http('POST', '{"a":1}', 'application/json'),
    'HTTP/Put': http('PUT', 'plain', 'application/json'),
    'Hashing/HMAC': {
      inputs: { Text: 'what do ya want for nothing?', Key: 'Jefe' },
      outputs: { HMAC: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843' },
    },
    'Hashing/MD5Hash': { inputs: { Text: 'hello' }, outputs: { Hash: '5d41402abc4b2a76b9719d911017c592' } },
    'Hashing/SHA1Hash': { inputs: { Text: 'hello', Encoding: 'base64' }, outputs: { Hash: 'qvTGHdzF6KLavt4PO0gs2a6pQ00=' } },
    'Hashing/SHA256Hash': { inputs: { Text: 'hello' }, outputs: { Hash: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824' } },
    'Hashing/SHA512Hash': { inputs: { Text: '' }, outputs: { Hash: expect.stringMatching(/^cf83e1357eefb8bd/) } },
    'JSON/BuildKeyValueJSON': { inputs: { Key: 'tags', Value: '["a"]', ValueIsJSON: 'true' }, outputs: { JSON: '{"tags":["a"]}' } },
    'JSON/FormatJSON': { inputs: { JSON: '{"a":[1]}', Indent: '1' }, outputs: { FormattedJSON: '{\n "a": [\n  1\n ]\n}' } },
    'JSON/GetValuesFromJSON': { inputs: { JSON: '{"items":[{"id":7},{"id":8}]}', Path: '$.items[1].id' }, outputs: { Result: '8', Count: '1' } },
    'JSON/MinifyJSON': { inputs: { JSON: '{ "a" : [ 1 , 2 ] }' }, outputs: { MinifiedJSON: '{"a":[1,2]}' } },
    'Text/ChangeCase': { inputs: { Text: 'hello there', Case: 'title' }, outputs: { Result: 'Hello There' } },
    'Text/Length': { inputs: { Text: 'héllo' }, outputs: { Characters: '5', Bytes: '6' } },
    'Text/RegexReplace': { inputs: { Text: '2024-05-06', Pattern: '(\\d+)-(\\d+)-(\\d+)', Replacement: '$3/$2/$1' }, outputs: { Result: '06/05/2024' } },
    'Text/Split': { inputs: { Text: 'a, b,,c' }, outputs: { Items: '["a","b","c"]', Count: '3' } },
    'Text/Trim': { inputs: { Text: '  a \n\t b  ' }, outputs: { Result: 'a b' } },
    'XML/RunXPathQuery': { inputs: { XML: xml, XPath: '//book[@id="b2"]/title' }, outputs: { Result: 'Emma', Count: '1' } },
  };
}

async function run(id: string, provided: Record<string, string>, hooks: EngineHooks = noHooks): Promise<RunOutcome> {
  const entry = catalogue.get(id);
  if (entry === undefined || !entry.valid) throw new Error(`${id} is not a valid Choreo`);
  const bound = bindInputs(entry.definition, provided);
  if (!bound.ok) throw new Error(`${id}: missing ${bound.missing.join(', ')}`);
  return runChoreo({ definition: entry.definition, inputs: bound.inputs, steps, hooks });
}

beforeAll(async () => {
  catalogue = await loadCatalogue(fileURLToPath(new URL('../../../choreos', import.meta.url)), steps);
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.setHeader('x-test', 'yes');
      response.end(
        JSON.stringify({
          method: request.method,
          path: request.url,
          auth: request.headers.authorization ?? null,
          contentType: request.headers['content-type'] ?? null,
          body: Buffer.concat(chunks).toString('utf8'),
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

describe('catalogue Choreos', () => {
  it('all have a case below', () => {
    // TokenStorage and Callback work on an account's state, Email needs an SMTP server: run with
    // real ones in test/integration/token-storage-choreos.test.ts, test/e2e/account-state.test.ts
    // and test/integration/send-email.test.ts; OAuth needs both, in test/e2e/account-state.test.ts.
    const ids = catalogue
      .list()
      .map((entry) => entry.id.replace('/Library/Utilities/', ''))
      .filter((id) => !['TokenStorage/', 'Callback/', 'Email/', 'Authentication/'].some((family) => id.startsWith(family)));
    expect(ids.sort()).toEqual(Object.keys(cases()).sort());
  });

  it.each(Object.keys(cases()))('%s', async (name) => {
    const testCase = cases()[name] as Case;
    const outcome = await run(`/Library/Utilities/${name}`, testCase.inputs);
    if (testCase.error !== undefined) {
      expect(outcome.kind).toBe('failed');
      expect(outcome.kind === 'failed' ? outcome.error : '').toMatch(testCase.error);
      return;
    }
    expect(outcome.kind === 'failed' ? outcome.error : outcome.kind).toBe('completed');
    expect(outcome.checkpoint.outputs).toEqual(testCase.outputs);
  });

  it('GetValuesFromJSON fails on malformed JSON, saying what is wrong', async () => {
    const outcome = await run('/Library/Utilities/JSON/GetValuesFromJSON', { JSON: '{"a": 1,,}', Path: '$.a' });
    expect(outcome).toMatchObject({ kind: 'failed', error: expect.stringMatching(/^query: JSON is not valid: .*position 8/) });
  });

  it('Countdown reports the steps completed when stopped early', async () => {
    const outcome = await run(
      '/Library/Utilities/Development/Countdown',
      { StepMilliseconds: '1' },
      { beforeStep: (index) => (index === 3 ? 'cancelled' : undefined), afterStep: async () => undefined },
    );
    expect(outcome).toMatchObject({ kind: 'stopped', reason: 'cancelled', checkpoint: { nextStep: 3, outputs: { CompletedSteps: '3' } } });
  });

  it('TokenStorage fails clearly in a run given no account state', async () => {
    const outcome = await run('/Library/Utilities/TokenStorage/IsValid', { Name: 'any' });
    expect(outcome).toMatchObject({ kind: 'failed', error: 'check: token storage is not available to this run: the worker has no SECRETS_KEY' });
  });

  it('HTTP/Get refuses bad RequestHeaders', async () => {
    const outcome = await run('/Library/Utilities/HTTP/Get', { URL: `${base}/echo`, RequestHeaders: 'not json' });
    expect(outcome).toMatchObject({ kind: 'failed', error: expect.stringContaining('expected a JSON object') });
  });
});
