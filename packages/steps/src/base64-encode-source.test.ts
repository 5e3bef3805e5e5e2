import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressRefusedError, StepFailedError } from '@ces/language';
import { createBase64EncodeSourceStep } from './base64-encode-source.ts';
import { createResourceFetcher } from './http-request.ts';

const BYTES = Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 0x41]);
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/missing') {
      response.writeHead(404).end('no');
      return;
    }
    if (request.url === '/big') {
      response.end(Buffer.alloc(4096));
      return;
    }
    response.end(BYTES);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const signal = new AbortController().signal;
const open = createBase64EncodeSourceStep(createResourceFetcher({ allowPrivateNetworks: true, timeoutMs: 5000, maxResponseBytes: 1024 }));
const strict = createBase64EncodeSourceStep(createResourceFetcher({ allowPrivateNetworks: false, timeoutMs: 5000, maxResponseBytes: 1024 }));
const run = (step: typeof open, args: Record<string, string>) => step.run(step.argsSchema.parse(args), { signal });

describe('encoding.base64-encode-source', () => {
  it('encodes the UTF-8 bytes of a text', async () => {
    await expect(run(open, { text: 'héllo ☃', url: '' })).resolves.toEqual({ text: 'aMOpbGxvIOKYgw==' });
  });

  it('encodes the bytes of a file at a URL, binary ones included, rather than the text', async () => {
    await expect(run(open, { text: 'ignored', url: `${base}/file` })).resolves.toEqual({ text: BYTES.toString('base64') });
  });

  it('encodes an empty text to an empty text', async () => {
    await expect(run(open, { text: '', url: '' })).resolves.toEqual({ text: '' });
  });

  it('fails on an answer other than 2xx, and on a file over the size limit', async () => {
    await expect(run(open, { url: `${base}/missing` })).rejects.toThrow(StepFailedError);
    await expect(run(open, { url: `${base}/missing` })).rejects.toThrow(/answered 404/);
    await expect(run(open, { url: `${base}/big` })).rejects.toThrow(/larger than/);
  });

  it('keeps to the egress policy and to http(s) URLs', async () => {
    await expect(run(strict, { url: `${base}/file` })).rejects.toThrow(EgressRefusedError);
    await expect(run(open, { url: 'file:///etc/passwd' })).rejects.toThrow(/only http and https/);
  });
});
