import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSelfSignedCertificate } from '@ces/local-runtime';

export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status it was answered with. */
  status: number;
}

/**
 * A local HTTPS endpoint for webhook deliveries, with a certificate of its own for 127.0.0.1 that
 * workers trust the Node way (`NODE_EXTRA_CA_CERTS` = `certFile`). Each path answers the statuses
 * a test scripts for it, in order, then 204.
 */
export class WebhookReceiver {
  readonly received: ReceivedDelivery[] = [];
  certFile = '';
  private readonly dir = mkdtempSync(join(tmpdir(), 'ces-webhooks-'));
  private readonly scripted = new Map<string, number[]>();
  private server: Server | undefined;

  async start(): Promise<this> {
    const paths = await ensureSelfSignedCertificate(this.dir);
    this.certFile = paths.certFile;
    this.server = createServer({ cert: readFileSync(paths.certFile), key: readFileSync(paths.keyFile) }, (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '';
        const status = this.scripted.get(path)?.shift() ?? 204;
        this.received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), status });
        response.statusCode = status;
        response.end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** The URL of `path` on this endpoint. */
  url(path: string): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (!address) throw new Error('the webhook receiver is not started');
    return `https://127.0.0.1:${address.port}${path}`;
  }

  /** The next requests to `path` are answered these statuses, in order. */
  answer(path: string, ...statuses: number[]): void {
    this.scripted.set(path, [...(this.scripted.get(path) ?? []), ...statuses]);
  }

  at(path: string): ReceivedDelivery[] {
    return this.received.filter((delivery) => delivery.path === path);
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
