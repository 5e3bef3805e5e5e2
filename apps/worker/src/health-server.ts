import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetricsRegistry } from '@ces/observability';

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

/**
 * A worker's own small HTTP server for orchestrators and Prometheus: `/healthz` (the process
 * answers), `/readyz` (connected to Redis and taking work; 503 otherwise, with the reasons) and
 * `/metrics`. Plain HTTP on an internal port: it carries no tenant data and takes no input.
 */
export async function startHealthServer(options: {
  port: number;
  hostname?: string;
  registry: MetricsRegistry;
  /** The reasons the worker is not ready; empty when it is. */
  notReadyReasons: () => string[];
  /** Errors of the server once it listens. */
  onError?: (error: Error) => void;
}): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, contentType: string, body: string) => {
      res.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return send(405, 'application/json', JSON.stringify({ status: 'method not allowed' }));
    }
    if (path === '/healthz') return send(200, 'application/json', JSON.stringify({ status: 'ok' }));
    if (path === '/readyz') {
      const reasons = options.notReadyReasons();
      return reasons.length === 0
        ? send(200, 'application/json', JSON.stringify({ status: 'ready' }))
        : send(503, 'application/json', JSON.stringify({ status: 'not ready', reasons }));
    }
    if (path === '/metrics') {
      options.registry.metrics().then(
        (text) => send(200, options.registry.contentType, text),
        () => send(500, 'application/json', JSON.stringify({ status: 'metrics unavailable' })),
      );
      return;
    }
    send(404, 'application/json', JSON.stringify({ status: 'not found' }));
  });
  server.keepAliveTimeout = 65_000;
  server.listen(options.port, options.hostname ?? '0.0.0.0');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Accepting a connection can fail later (out of descriptors); unheard, that would end the worker.
  server.on('error', (error: Error) => options.onError?.(error));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
