import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSelfSignedCertificate, findFreePort } from '@ces/local-runtime';
import { deleteKeysWithPrefix, isolatedPrefix, waitFor } from '@ces/testing';
import { Redis } from 'ioredis';
import { createHttpsClient, type HttpResponse, type HttpsClient, type RequestOptions } from './https-client.ts';
import { ServiceProcess } from './service-process.ts';

export const CATALOGUE_DIR = fileURLToPath(new URL('../../choreos', import.meta.url));

/** Credentials every stack knows; secrets are random per stack. */
export interface StackCredentials {
  /** acme: a user with every Choreo, an app limited to Encoding, and a full app. */
  alice: { account: 'acme'; name: 'alice'; secret: string };
  encodingApp: { account: 'acme'; name: 'encoding-app'; secret: string };
  acmeApp: { account: 'acme'; name: 'acme-app'; secret: string };
  /** other: another tenant. */
  bob: { account: 'other'; name: 'bob'; secret: string };
  operator: { name: 'oncall'; secret: string };
}

export interface StackOptions {
  redisUrl: string;
  workers?: number;
  /** Extra environment for every process (API and workers). */
  env?: Record<string, string>;
  workerEnv?: Record<string, string>;
  choreosDir?: string;
}

export type Credential = { account: string; name: string; secret: string };

/**
 * A running service for end-to-end tests: one API process and N worker processes against a real
 * Redis, under a key prefix of their own, speaking real HTTPS.
 */
export class Stack {
  readonly prefix = isolatedPrefix('e2e');
  readonly dataDir = mkdtempSync(join(tmpdir(), 'ces-e2e-'));
  readonly workers: ServiceProcess[] = [];
  readonly credentials: StackCredentials;
  api!: ServiceProcess;
  port = 0;
  http!: HttpsClient;
  redis!: Redis;
  private readonly options: StackOptions;
  private readonly env: Record<string, string>;

  constructor(options: StackOptions) {
    this.options = options;
    const secret = () => `s-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}-0123456789abcdef`;
    this.credentials = {
      alice: { account: 'acme', name: 'alice', secret: secret() },
      encodingApp: { account: 'acme', name: 'encoding-app', secret: secret() },
      acmeApp: { account: 'acme', name: 'acme-app', secret: secret() },
      bob: { account: 'other', name: 'bob', secret: secret() },
      operator: { name: 'oncall', secret: secret() },
    };
    const accountsFile = join(this.dataDir, 'accounts.json');
    const c = this.credentials;
    writeFileSync(
      accountsFile,
      JSON.stringify({
        accounts: [
          {
            name: 'acme',
            users: [{ name: 'alice', password: c.alice.secret, choreos: ['/**'] }],
            apps: [
              { name: 'encoding-app', key: c.encodingApp.secret, choreos: ['/Library/Utilities/Encoding/**'] },
              { name: 'acme-app', key: c.acmeApp.secret, choreos: ['/**'] },
            ],
          },
          { name: 'other', users: [{ name: 'bob', password: c.bob.secret, choreos: ['/**'] }] },
        ],
        operators: [{ name: 'oncall', password: c.operator.secret }],
      }),
    );
    this.env = {
      REDIS_URL: options.redisUrl,
      REDIS_PREFIX: this.prefix,
      ACCOUNTS_FILE: accountsFile,
      DATA_DIR: this.dataDir,
      CHOREOS_DIR: options.choreosDir ?? CATALOGUE_DIR,
      SERVICE_HOST: 'choreos.test',
      ...options.env,
    };
  }

  async start(): Promise<this> {
    const tls = await ensureSelfSignedCertificate(this.dataDir);
    this.port = await findFreePort();
    this.redis = new Redis(this.options.redisUrl);
    this.api = new ServiceProcess('api', 'api', { ...this.env, PORT: String(this.port), BIND_ADDRESS: '127.0.0.1' });
    for (let i = 0; i < (this.options.workers ?? 1); i += 1) this.addWorker();
    this.http = createHttpsClient(`https://127.0.0.1:${this.port}`, readFileSync(tls.certFile, 'utf8'));
    await this.waitForWorkers(this.workers.length);
    return this;
  }

  addWorker(env: Record<string, string> = {}): ServiceProcess {
    const worker = new ServiceProcess(`worker-${this.workers.length + 1}`, 'worker', {
      ...this.env,
      WORKER_HOST: `10.0.0.${this.workers.length + 1}`,
      HTTP_ALLOW_PRIVATE_NETWORKS: 'true',
      ...this.options.workerEnv,
      ...env,
    });
    this.workers.push(worker);
    return worker;
  }

  /** Waits until the API is ready and at least `count` workers send heartbeats. */
  async waitForWorkers(count: number, timeoutMs = 30_000): Promise<void> {
    await waitFor(
      async () => {
        if (!this.api.running) throw new Error(`the API exited:\n${this.api.logs()}`);
        const res = await this.http.request('GET', '/readyz');
        return res.status === 200 && res.json().workers >= count;
      },
      { timeoutMs, intervalMs: 100, what: `the API and ${count} workers` },
    );
  }

  /** A request to the interface with Basic credentials and the domain header of their account. */
  call(method: string, path: string, credential: Credential, options: RequestOptions & { accept?: string } = {}): Promise<HttpResponse> {
    const headers: Record<string, string> = {
      authorization: `Basic ${Buffer.from(`${credential.name}:${credential.secret}`).toString('base64')}`,
      'x-service-domain': `/${credential.account}/master`,
      accept: options.accept ?? 'application/json',
      ...options.headers,
    };
    if (options.body !== undefined && !('content-type' in headers)) headers['content-type'] = 'application/json';
    return this.http.request(method, `/service-api/1.0${path}`, { ...options, headers });
  }

  /** Polls an execution's status until it is no longer RUNNING. */
  async waitForEnd(id: string, credential: Credential, timeoutMs = 20_000): Promise<Record<string, string>> {
    return waitFor(
      async () => {
        const res = await this.call('GET', `/choreo-executions/${id}`, credential);
        const execution = res.json().execution;
        return execution.status !== 'RUNNING' ? execution : undefined;
      },
      { timeoutMs, intervalMs: 50, what: `execution ${id} to end` },
    );
  }

  logs(): string {
    return [this.api, ...this.workers].map((p) => `--- ${p.name}\n${p.logs()}`).join('\n');
  }

  async stop(): Promise<void> {
    await Promise.all([this.api, ...this.workers].filter(Boolean).map((p) => p.stop()));
    this.http?.close();
    if (this.redis) {
      await deleteKeysWithPrefix(this.redis, this.prefix).catch(() => {});
      this.redis.disconnect();
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const stack = new Stack(options);
  try {
    return await stack.start();
  } catch (error) {
    const logs = stack.logs();
    await stack.stop();
    throw new Error(`${(error as Error).message}\n${logs}`);
  }
}
