import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';

export interface ListenOptions {
  fetch: (request: Request) => Response | Promise<Response>;
  port: number;
  hostname: string;
  /** PEM certificate and key; without them the server speaks plain HTTP (only behind a TLS proxy). */
  tls?: { cert: string; key: string };
  /** CONNECTION_TIMEOUTS when absent. */
  timeouts?: ConnectionTimeouts;
  /**
   * Errors of the listening server once it listens (accepting a connection failed: out of
   * descriptors, of buffers). Without a listener the first such error would end the process.
   */
  onError?: (error: Error) => void;
}

/**
 * How long a connection may keep the server waiting. Without them, a connection that completed
 * its TLS handshake and never sent a byte stayed open for good, and headers trickled in a byte at a
 * time held one for a minute and a half: anyone, without credentials, could hold sockets and file
 * descriptors.
 */
export interface ConnectionTimeouts {
  /** From a request's first byte to the end of its headers. */
  headersMs: number;
  /** From a request's first byte to the end of its body (a run body is 1 MiB at most). */
  requestMs: number;
  /**
   * A connection with nothing moving either way: longer than a synchronous run's wait, during
   * which the answer is simply not ready yet, and than keep-alive.
   */
  idleMs: number;
  /** An idle connection between requests. */
  keepAliveMs: number;
}

export const CONNECTION_TIMEOUTS: ConnectionTimeouts = { headersMs: 20_000, requestMs: 60_000, idleMs: 120_000, keepAliveMs: 65_000 };

export interface RunningServer {
  server: ServerType;
  port: number;
  close(): Promise<void>;
}

export function listen(options: ListenOptions): Promise<RunningServer> {
  const timeouts = options.timeouts ?? CONNECTION_TIMEOUTS;
  const limits = {
    keepAliveTimeout: timeouts.keepAliveMs,
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    // Node checks the two above this often (30 s by default), which would let them run long.
    connectionsCheckingInterval: Math.min(30_000, timeouts.headersMs / 2),
  };
  return new Promise((resolve, reject) => {
    const transport = options.tls
      ? { createServer: createHttpsServer, serverOptions: { cert: options.tls.cert, key: options.tls.key, ...limits } }
      : { createServer: createHttpServer, serverOptions: limits };
    const server = serve({ fetch: options.fetch, port: options.port, hostname: options.hostname, ...transport }, (info: AddressInfo) => {
      server.off('error', reject);
      server.on('error', (error: Error) => options.onError?.(error));
      resolve({
        server,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Idle keep-alive connections would hold close() open until they time out.
            if ('closeIdleConnections' in server) server.closeIdleConnections();
          }),
      });
    });
    // Idle sockets are destroyed (the server's default for a socket that times out).
    server.setTimeout(timeouts.idleMs);
    server.once('error', reject);
  });
}
