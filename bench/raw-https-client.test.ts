import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSelfSignedCertificate } from '@ces/local-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRequest, openRawPool, type RawPool } from './raw-https-client.ts';
import { must } from '@ces/testing';

describe('raw HTTPS client', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ces-raw-client-'));
  let server: Server;
  let origin = '';
  let ca = '';
  let pool: RawPool;

  beforeAll(async () => {
    const tls = await ensureSelfSignedCertificate(dataDir);
    ca = readFileSync(tls.certFile, 'utf8');
    server = createServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (request.url === '/chunked') {
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.write('first ');
          response.write('second ');
          response.end('été');
        } else if (request.url === '/empty') {
          response.writeHead(204).end();
        } else {
          const answer = JSON.stringify({ method: request.method, url: request.url, key: request.headers['x-key'], body });
          response.writeHead(201, { 'content-type': 'application/json', 'Content-Length': Buffer.byteLength(answer) }).end(answer);
        }
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    origin = `https://127.0.0.1:${address.port}`;
    pool = await openRawPool({ origin, ca, servername: 'localhost', size: 2 });
  });

  afterAll(async () => {
    pool?.close();
    server.closeAllConnections();
    server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends an encoded request with its body and reads a sized answer', async () => {
    const bytes = encodeRequest({ method: 'POST', path: '/run?x=1', headers: { 'x-key': 'k1' }, body: '{"a":"ü"}' }, 'localhost');
    const response = await pool.request(bytes);
    expect(response.statusCode).toBe(201);
    expect(JSON.parse(response.body)).toEqual({ method: 'POST', url: '/run?x=1', key: 'k1', body: '{"a":"ü"}' });
  });

  it('reads chunked answers and answers without a body, on the same kept-alive connections', async () => {
    const chunked = encodeRequest({ method: 'GET', path: '/chunked', headers: {} }, 'localhost');
    const empty = encodeRequest({ method: 'DELETE', path: '/empty', headers: {} }, 'localhost');
    const answers = await Promise.all([pool.request(chunked), pool.request(empty), pool.request(chunked), pool.request(empty)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 204, 200, 204]);
    expect(must(answers[0]).body).toBe('first second été');
    expect(must(answers[1]).body).toBe('');
  });

  it('fails the request in flight when the server goes away, and every later one', async () => {
    const lonely = await openRawPool({ origin, ca, servername: 'localhost', size: 1 });
    const bytes = encodeRequest({ method: 'GET', path: '/empty', headers: {} }, 'localhost');
    expect((await lonely.request(bytes)).statusCode).toBe(204);
    server.closeAllConnections();
    await expect(lonely.request(bytes)).rejects.toThrow();
    lonely.close();
    pool = await openRawPool({ origin, ca, servername: 'localhost', size: 2 });
  });
});
