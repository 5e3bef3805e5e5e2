import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStepLibrary } from '@ces/steps';
import { type Catalogue, loadCatalogue } from '@ces/catalogue';
import { statelessUtilityCases } from './catalogue-cases-stateless.ts';
import type { CatalogueCase } from './catalogue-cases/catalogue-case.ts';
import { dataConversionCases } from './catalogue-cases/data-conversions.ts';
import { datesCases } from './catalogue-cases/dates.ts';
import { httpCases } from './catalogue-cases/http.ts';
import { testPages } from './catalogue-cases/test-pages.ts';
import { xmlCases } from './catalogue-cases/xml.ts';
import { expectCaseOutcome, runCatalogueChoreo } from './catalogue-run-for-test.ts';
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

/** The original Utilities' families, in files of their own: several cases per Choreo. */
function familyCases(): CatalogueCase[] {
  return [...xmlCases(), ...httpCases({ base }), ...datesCases(), ...dataConversionCases({ base })];
}

function cases(): Record<string, Case> {
  return {
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
    'Development/NoOpLoop': { inputs: { Iterations: '250' }, outputs: { Iterations: '250' } },
    'Development/Wait': { inputs: { Milliseconds: '1' }, outputs: { WaitedMilliseconds: '1' } },
    'Encoding/Base64URLDecode': { inputs: { Base64URLEncodedText: 'Pz8-' }, outputs: { Text: '??>' } },
    'Encoding/Base64URLEncode': { inputs: { Text: '??>' }, outputs: { Base64URLEncodedText: 'Pz8-' } },
    'Encoding/HexDecode': { inputs: { HexEncodedText: '6869' }, outputs: { Text: 'hi' } },
    'Encoding/HexEncode': { inputs: { Text: 'hi' }, outputs: { HexEncodedText: '6869' } },
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
    'JSON/RunJSONPathQuery': { inputs: { JSON: '{"items":[{"id":7},{"id":8}]}', Path: '$.items[1].id' }, outputs: { Result: '8', Count: '1' } },
    'JSON/MinifyJSON': { inputs: { JSON: '{ "a" : [ 1 , 2 ] }' }, outputs: { MinifiedJSON: '{"a":[1,2]}' } },
    'Text/ChangeCase': { inputs: { Text: 'hello there', Case: 'title' }, outputs: { Result: 'Hello There' } },
    'Text/Length': { inputs: { Text: 'héllo' }, outputs: { Characters: '5', Bytes: '6' } },
    'Text/RegexReplace': { inputs: { Text: '2024-05-06', Pattern: '(\\d+)-(\\d+)-(\\d+)', Replacement: '$3/$2/$1' }, outputs: { Result: '06/05/2024' } },
    'Text/Trim': { inputs: { Text: '  a \n\t b  ' }, outputs: { Result: 'a b' } },
    ...statelessUtilityCases(),
  };
}

function run(id: string, provided: Record<string, string>, hooks?: EngineHooks): Promise<RunOutcome> {
  return runCatalogueChoreo(catalogue, steps, id, provided, hooks);
}

beforeAll(async () => {
  catalogue = await loadCatalogue(fileURLToPath(new URL('../../../choreos', import.meta.url)), steps);
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const page = testPages[request.url ?? ''];
      if (page !== undefined) {
        response.writeHead(page.status, { 'content-type': page.contentType });
        response.end(page.body);
        return;
      }
      response.setHeader('x-test', 'yes');
      response.end(
        JSON.stringify({
          method: request.method,
          path: request.url,
          auth: request.headers.authorization ?? null,
          contentType: request.headers['content-type'] ?? null,
          custom: request.headers['x-custom'] ?? null,
          body: Buffer.concat(chunks).toString('utf8'),
          bytes: Buffer.concat(chunks).toString('hex'),
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
    // The examples are tested in example-choreos.test.ts. TokenStorage and Callback work on an
    // account's state, Email needs an SMTP server: run with real ones in
    // test/integration/token-storage-choreos.test.ts, test/e2e/account-state.test.ts and
    // test/integration/send-email.test.ts; OAuth needs both, in test/e2e/account-state.test.ts.
    const utilities = catalogue
      .list()
      .filter((entry) => entry.id.startsWith('/Library/Utilities/'))
      .filter((entry) => !['TokenStorage/', 'Callback/', 'Email/', 'Authentication/'].some((family) => entry.id.startsWith(`/Library/Utilities/${family}`)));
    const ids = utilities.map((entry) => entry.id.replace('/Library/Utilities/', ''));
    const covered = new Set([...Object.keys(cases()), ...familyCases().map((testCase) => testCase.choreo)]);
    expect(ids.sort()).toEqual([...covered].sort());
  });

  it.each(Object.keys(cases()))('%s', async (name) => {
    const testCase = cases()[name] as Case;
    const outcome = await run(`/Library/Utilities/${name}`, testCase.inputs);
    expectCaseOutcome(outcome, testCase);
  });

  // Titles now; the cases themselves once the server's address is known.
  it.each(familyCases().map((testCase, index) => [`${testCase.choreo}${testCase.name === undefined ? '' : ` (${testCase.name})`}`, index] as const))(
    '%s',
    async (_title, index) => {
      const testCase = familyCases()[index] as CatalogueCase;
      const outcome = await run(`/Library/Utilities/${testCase.choreo}`, testCase.inputs);
      if (testCase.error !== undefined) {
        expect(outcome).toMatchObject({ kind: 'failed', error: expect.stringMatching(testCase.error) });
        return;
      }
      expect(outcome.kind === 'failed' ? outcome.error : outcome.kind).toBe('completed');
      expect(outcome.checkpoint.outputs).toEqual(testCase.outputs);
    },
  );

  it('XLSToCSV and XLSToXML read what CSVToXLS and XMLToXLS write', async () => {
    const written = await run('/Library/Utilities/DataConversions/CSVToXLS', { CSV: 'name,qty\nZoë,3\n' });
    const xls = written.kind === 'completed' ? String(written.checkpoint.outputs.XLS) : '';
    expect(await run('/Library/Utilities/DataConversions/XLSToCSV', { XLS: xls })).toMatchObject({
      kind: 'completed',
      checkpoint: { outputs: { CSV: 'name,qty\nZoë,3' } },
    });
    const fromXml = await run('/Library/Utilities/DataConversions/XMLToXLS', { XML: '<rowset><row><a>1</a><b>x</b></row></rowset>' });
    const xlsFromXml = fromXml.kind === 'completed' ? String(fromXml.checkpoint.outputs.XLS) : '';
    expect(await run('/Library/Utilities/DataConversions/XLSToXML', { XLS: xlsFromXml })).toMatchObject({
      kind: 'completed',
      checkpoint: { outputs: { XML: '<rowset><row><a>1</a><b>x</b></row></rowset>' } },
    });
  });

  it('RunJSONPathQuery fails on malformed JSON, saying what is wrong', async () => {
    const outcome = await run('/Library/Utilities/JSON/RunJSONPathQuery', { JSON: '{"a": 1,,}', Path: '$.a' });
    expect(outcome).toMatchObject({ kind: 'failed', error: expect.stringMatching(/^query: JSON is not valid: .*position 8/) });
  });

  it('Countdown reports the steps completed when stopped early', async () => {
    const outcome = await run(
      '/Library/Utilities/Development/Countdown',
      { StepMilliseconds: '1' },
      { beforeStep: (index) => (index === 3 ? 'termination-requested' : undefined), afterStep: async () => undefined, afterProgress: async () => undefined },
    );
    expect(outcome).toMatchObject({ kind: 'stopped', reason: 'termination-requested', checkpoint: { nextStep: 3, outputs: { CompletedSteps: '3' } } });
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
