// The TLS setup of the API (node:https, the same certificate, the same keep-alive) around a bare
// fetch handler, so that the baselines differ from the API only in what their handlers do.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { serve } from '@hono/node-server';

export interface ApiLikeHttpsServerOptions {
  fetch: (request: Request) => Response | Promise<Response>;
  port: number;
  certFile: string;
  keyFile: string;
  /** Written to stdout once listening, for the bench to wait for. */
  readyLine: string;
  /** Runs on SIGTERM once the server has closed, before the process exits. */
  onClosed?: () => Promise<void>;
}

/** Serves on 127.0.0.1 and stops the process on SIGTERM, closing idle keep-alive connections. */
export function serveLikeTheApi(options: ApiLikeHttpsServerOptions): void {
  const server = serve(
    {
      fetch: options.fetch,
      port: options.port,
      hostname: '127.0.0.1',
      createServer,
      serverOptions: { cert: readFileSync(options.certFile, 'utf8'), key: readFileSync(options.keyFile, 'utf8'), keepAliveTimeout: 65_000 },
    },
    () => process.stdout.write(`${options.readyLine}\n`),
  );

  process.on('SIGTERM', () => {
    server.close(() => {
      void (options.onClosed?.() ?? Promise.resolve()).then(() => process.exit(0));
    });
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  });
}
