import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { ensureSelfSignedCertificate } from '@ces/local-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RawHttpsServer, type RawServerRequest, startRawHttpsServer } from './raw-https-server.ts';

describe('raw HTTPS server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ces-raw-server-'));
  const received: { method: string; path: string; body: string }[] = [];
  let server: RawHttpsServer;
  let ca = '';

  beforeAll(async () => {
    const tls = await ensureSelfSignedCertificate(dataDir);
    ca = readFileSync(tls.certFile, 'utf8');
    server = await startRawHttpsServer({
      cert: readFileSync(tls.certFile),
      key: readFileSync(tls.keyFile),
      handler: (request: RawServerRequest) => {
        received.push({ method: request.method, path: request.path, body: request.body.toString('utf8') });
        return request.path === '/gone' ? 410 : 204;
      },
    });
  });

  /** A TLS connection to the server, written to by hand; what it has answered so far. */
  async function openSocket() {
    const { port } = new URL(server.origin);
    const socket = connect({ host: '127.0.0.1', port: Number(port), ca, servername: 'localhost' });
    await once(socket, 'secureConnect');
    let answers = '';
    socket.on('data', (chunk: Buffer) => {
      answers += chunk.toString('latin1');
    });
    return { socket, answered: () => answers };
  }

  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A request of node:https through `agent`: its status, and whether it went over a kept-alive connection. */
  function post(agent: Agent, path: string, body: string): Promise<{ status: number; reused: boolean }> {
    return new Promise((resolve, reject) => {
      const request = httpsRequest(
        `${server.origin}${path}`,
        { method: 'POST', ca, servername: 'localhost', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0, reused: request.reusedSocket }));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  it("answers a general-purpose client's requests with the handler's status, on one kept-alive connection", async () => {
    received.length = 0;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await post(agent, '/hooks?x=1', '{"a":"ü"}');
      const second = await post(agent, '/gone', '{}');
      expect(first).toEqual({ status: 204, reused: false });
      expect(second).toEqual({ status: 410, reused: true });
      expect(received).toEqual([
        { method: 'POST', path: '/hooks?x=1', body: '{"a":"ü"}' },
        { method: 'POST', path: '/gone', body: '{}' },
      ]);
    } finally {
      agent.destroy();
    }
  });

  it('reads requests split across packets and several in one, answering each in order', async () => {
    received.length = 0;
    const { socket, answered } = await openSocket();
    const request = (path: string, body: string) => `POST ${path} HTTP/1.1\r\nhost: localhost\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const first = request('/one', '{"n":1}');
    socket.write(first.slice(0, 20));
    await new Promise((resolve) => setImmediate(resolve));
    socket.write(first.slice(20, -3));
    await new Promise((resolve) => setImmediate(resolve));
    socket.write(`${first.slice(-3)}${request('/two', '')}${request('/gone', 'x')}`);
    const deadline = Date.now() + 5_000;
    while (answered().split('HTTP/1.1 ').length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    socket.destroy();
    expect(answered()).toBe('HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 410 Gone\r\ncontent-length: 0\r\n\r\n');
    expect(received).toEqual([
      { method: 'POST', path: '/one', body: '{"n":1}' },
      { method: 'POST', path: '/two', body: '' },
      { method: 'POST', path: '/gone', body: 'x' },
    ]);
  });

  it('answers 400 and closes the connection on what it cannot read', async () => {
    const { socket, answered } = await openSocket();
    socket.write('POST /chunked HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n');
    await once(socket, 'end');
    socket.destroy();
    expect(answered()).toBe('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n');
  });
});
