import { expect } from 'vitest';
import type { CatalogueCase, CatalogueCaseContext } from './catalogue-case.ts';

/** What the test server echoes (catalogue-choreos.test.ts): the request it received, as JSON. */
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

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);

export function httpCases({ base }: CatalogueCaseContext): CatalogueCase[] {
  const common = { RequestParameters: '{"q":"two words","n":2}', RequestHeaders: '{"X-Custom":"custom-value"}', Username: 'ann', Password: 'pä:ss' };
  const path = '/echo?q=two+words&n=2';
  return [
    {
      choreo: 'HTTP/Get',
      inputs: { URL: `${base}/echo`, ...common },
      outputs: {
        Response: echo({ method: 'GET', path, auth: basic('ann', 'pä:ss'), custom: 'custom-value' }),
        ResponseStatusCode: '200',
        ResponseHeaders: expect.stringContaining('"x-test":"yes"'),
      },
    },
    {
      choreo: 'HTTP/Get',
      name: 'Debug returns HTTPLog',
      inputs: { URL: `${base}/echo`, Debug: 'true', Username: 'ann', Password: 'secret' },
      outputs: {
        Response: echo({ method: 'GET', path: '/echo', auth: basic('ann', 'secret') }),
        ResponseStatusCode: '200',
        ResponseHeaders: expect.any(String),
        HTTPLog: expect.stringMatching(
          /^> GET \/echo HTTP\/1\.1\n(> .*\n)*> authorization: Basic \[hidden\]\n(.*\n)*< HTTP\/1\.1 200 OK\n(.*\n)*< x-test: yes\n/,
        ),
      },
    },
    { choreo: 'HTTP/Get', name: 'a URL that is not one', inputs: { URL: 'not a url' }, error: /^request: "not a url" is not a valid URL$/ },
    {
      choreo: 'HTTP/Delete',
      inputs: { URL: `${base}/echo`, ...common },
      outputs: {
        Response: echo({ method: 'DELETE', path, auth: basic('ann', 'pä:ss'), custom: 'custom-value' }),
        ResponseStatusCode: '200',
        ResponseHeaders: expect.any(String),
      },
    },
    {
      choreo: 'HTTP/Post',
      inputs: { URL: `${base}/echo`, ...common, RequestBody: '{"a":"é"}', ContentType: 'application/json' },
      outputs: {
        Response: echo({
          method: 'POST',
          path,
          auth: basic('ann', 'pä:ss'),
          custom: 'custom-value',
          contentType: 'application/json',
          body: Buffer.from('{"a":"é"}'),
        }),
        ResponseStatusCode: '200',
        ResponseHeaders: expect.any(String),
      },
    },
    {
      choreo: 'HTTP/Post',
      name: 'binary EncodedData',
      inputs: { URL: `${base}/echo`, EncodedData: png.toString('base64'), RequestHeaders: '{"Content-Type":"image/png"}' },
      outputs: {
        Response: echo({ method: 'POST', path: '/echo', contentType: 'image/png', body: png }),
        ResponseStatusCode: '200',
        ResponseHeaders: expect.any(String),
      },
    },
    {
      choreo: 'HTTP/Post',
      name: 'EncodedData that is not Base64',
      inputs: { URL: `${base}/echo`, EncodedData: '%%%' },
      error: /^request: the encoded body is not valid Base64$/,
    },
    {
      choreo: 'HTTP/Put',
      inputs: { URL: `${base}/echo`, ...common, RequestBody: 'plain text' },
      outputs: {
        Response: echo({ method: 'PUT', path, auth: basic('ann', 'pä:ss'), custom: 'custom-value', body: Buffer.from('plain text') }),
        ResponseStatusCode: '200',
        ResponseHeaders: expect.any(String),
      },
    },
    {
      choreo: 'HTTP/Put',
      name: 'RequestParameters that are not JSON',
      inputs: { URL: `${base}/echo`, RequestParameters: '{q=1}' },
      error: /^request: invalid arguments: .*expected a JSON object/,
    },
  ];
}
