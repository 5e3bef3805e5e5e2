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
}

export interface RunningServer {
  server: ServerType;
  port: number;
  close(): Promise<void>;
}

export function listen(options: ListenOptions): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const transport = options.tls
      ? { createServer: createHttpsServer, serverOptions: { cert: options.tls.cert, key: options.tls.key, keepAliveTimeout: 65_000 } }
      : { createServer: createHttpServer, serverOptions: { keepAliveTimeout: 65_000 } };
    const server = serve({ fetch: options.fetch, port: options.port, hostname: options.hostname, ...transport }, (info: AddressInfo) => {
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
    server.once('error', reject);
  });
}
