import type { ChoreoCase, ChoreoCaseContext } from './choreo-case.ts';
import { ANY_TEXT } from './choreo-case.ts';

/** What the echo server (test/support/echo-server.ts) answers at /echo: the request it received, as JSON. */
function echo(request: { method: string; path: string; auth?: string; contentType?: string; custom?: string; body?: Buffer }): string {
  const body = request.body ?? Buffer.alloc(0);
  return JSON.stringify({
    method: request.method,
    path: request.path,
    auth: request.auth ?? null,
    contentType: request.contentType ?? null,
    custom: request.custom ?? null,
    body: body.toString('utf8'),
    bytes: body.toString('hex'),
  });
}

const family = 'HTTP';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
const atEcho = ({ echoServerUrl }: ChoreoCaseContext) => ({ URL: `${echoServerUrl}/echo` });
const common = { RequestParameters: '{"q":"two words","n":2}', RequestHeaders: '{"X-Custom":"custom-value"}', Username: 'ann', Password: 'pä:ss' };
const path = '/echo?q=two+words&n=2';

export const cases: ChoreoCase[] = [
  {
    family,
    choreo: 'Get',
    inputs: common,
    contextInputs: atEcho,
    outputs: {
      Response: echo({ method: 'GET', path, auth: basic('ann', 'pä:ss'), custom: 'custom-value' }),
      ResponseStatusCode: '200',
      ResponseHeaders: /"x-test":"yes"/,
    },
  },
  {
    family,
    choreo: 'Get',
    name: 'Debug returns HTTPLog',
    inputs: { Debug: 'true', Username: 'ann', Password: 'secret' },
    contextInputs: atEcho,
    outputs: {
      Response: echo({ method: 'GET', path: '/echo', auth: basic('ann', 'secret') }),
      ResponseStatusCode: '200',
      ResponseHeaders: ANY_TEXT,
      HTTPLog: /^> GET \/echo HTTP\/1\.1\n(> .*\n)*> authorization: Basic \[hidden\]\n(.*\n)*< HTTP\/1\.1 200 OK\n(.*\n)*< x-test: yes\n/,
    },
  },
  { family, choreo: 'Get', name: 'a URL that is not one', inputs: { URL: 'not a url' }, error: /^request: "not a url" is not a valid URL$/ },
  {
    family,
    choreo: 'Delete',
    inputs: common,
    contextInputs: atEcho,
    outputs: {
      Response: echo({ method: 'DELETE', path, auth: basic('ann', 'pä:ss'), custom: 'custom-value' }),
      ResponseStatusCode: '200',
      ResponseHeaders: ANY_TEXT,
    },
  },
  {
    family,
    choreo: 'Post',
    inputs: { ...common, RequestBody: '{"a":"é"}' },
    contextInputs: atEcho,
    outputs: {
      Response: echo({ method: 'POST', path, auth: basic('ann', 'pä:ss'), custom: 'custom-value', body: Buffer.from('{"a":"é"}') }),
      ResponseStatusCode: '200',
      ResponseHeaders: ANY_TEXT,
    },
  },
  {
    family,
    choreo: 'Post',
    name: 'a ContentType, an input of the service only',
    inputs: { RequestBody: '{"a":"é"}', ContentType: 'application/json' },
    contextInputs: atEcho,
    outputs: {
      Response: echo({ method: 'POST', path: '/echo', contentType: 'application/json', body: Buffer.from('{"a":"é"}') }),
      ResponseStatusCode: '200',
      ResponseHeaders: ANY_TEXT,
    },
    only: 'engine',
  },
  {
    family,
    choreo: 'Post',
    name: 'binary EncodedData',
    inputs: { EncodedData: png.toString('base64'), RequestHeaders: '{"Content-Type":"image/png"}' },
    contextInputs: atEcho,
    outputs: {
      Response: echo({ method: 'POST', path: '/echo', contentType: 'image/png', body: png }),
      ResponseStatusCode: '200',
      ResponseHeaders: ANY_TEXT,
    },
  },
  {
    family,
    choreo: 'Post',
    name: 'EncodedData that is not Base64',
    inputs: { EncodedData: '%%%' },
    contextInputs: atEcho,
    error: /^request: the encoded body is not valid Base64$/,
  },
  {
    family,
    choreo: 'Put',
    inputs: { ...common, RequestBody: 'plain text' },
    contextInputs: atEcho,
    outputs: {
      Response: echo({ method: 'PUT', path, auth: basic('ann', 'pä:ss'), custom: 'custom-value', body: Buffer.from('plain text') }),
      ResponseStatusCode: '200',
      ResponseHeaders: ANY_TEXT,
    },
  },
  {
    family,
    choreo: 'Put',
    name: 'RequestParameters that are not JSON',
    inputs: { RequestParameters: '{q=1}' },
    contextInputs: atEcho,
    error: /^request: invalid arguments: .*expected a JSON object/,
  },
];
