import type { SdkCase } from '../../support/sdk-case.ts';

/** Runs against the runner's echo server (test/support/echo-server.ts), through `contextInputs`. */

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);

interface Echo {
  method: string;
  path: string;
  auth: string | null;
  contentType: string | null;
  custom: string | null;
  body: string;
  bytes: string;
}

function echoed(outputs: Readonly<Record<string, string>>): Echo {
  if (outputs.ResponseStatusCode !== '200') throw new Error(`ResponseStatusCode is ${outputs.ResponseStatusCode}, not 200`);
  return JSON.parse(outputs.Response ?? '') as Echo;
}

function expectEqual(actual: unknown, expected: unknown, what: string) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

const withServer = (path: string) => (context: { echoServerUrl: string }) => ({ URL: `${context.echoServerUrl}${path}` });
const common = { RequestParameters: '{"q":"two words","n":"2"}', RequestHeaders: '{"X-Custom":"yes"}', Username: 'ann', Password: 'pä:ss' };

function requestCase(choreo: string, method: string, extra: Record<string, string>, body: string): SdkCase {
  return {
    family: 'HTTP',
    choreo,
    inputs: { ...common, ...extra },
    contextInputs: withServer('/echo'),
    check: (outputs) => {
      const echo = echoed(outputs);
      expectEqual(
        [echo.method, echo.path, echo.auth, echo.custom, echo.body],
        [method, '/echo?q=two+words&n=2', basic('ann', 'pä:ss'), 'yes', body],
        `${choreo}'s request`,
      );
    },
  };
}

export const cases: SdkCase[] = [
  requestCase('Get', 'GET', {}, ''),
  requestCase('Delete', 'DELETE', {}, ''),
  requestCase('Post', 'POST', { RequestBody: '{"a":"é"}' }, '{"a":"é"}'),
  requestCase('Put', 'PUT', { RequestBody: 'plain text' }, 'plain text'),
  {
    family: 'HTTP',
    choreo: 'Post',
    name: 'binary EncodedData',
    inputs: { EncodedData: png.toString('base64'), RequestHeaders: '{"Content-Type":"image/png"}' },
    contextInputs: withServer('/upload'),
    check: (outputs) => {
      const echo = echoed(outputs);
      expectEqual([echo.bytes, echo.contentType], [png.toString('hex'), 'image/png'], 'the bytes posted');
    },
  },
  {
    family: 'HTTP',
    choreo: 'Get',
    name: 'Debug returns HTTPLog',
    inputs: { Debug: 'true', Username: 'ann', Password: 'secret' },
    contextInputs: withServer('/echo'),
    check: (outputs) => {
      const log = outputs.HTTPLog ?? '';
      if (!log.startsWith('> GET /echo HTTP/1.1\n') || !log.includes('\n< HTTP/1.1 200 OK\n') || !log.includes('> authorization: Basic [hidden]')) {
        throw new Error(`HTTPLog is not the exchange: ${log}`);
      }
    },
  },
  { family: 'HTTP', choreo: 'Get', name: 'a URL that is not one', inputs: { URL: 'not a url' }, error: /is not a valid URL/ },
];
