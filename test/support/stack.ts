import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSelfSignedCertificate, findFreePort, type LocalRedisCluster, startRedisCluster } from '@ces/local-runtime';
import {
  createAccountReservations,
  createExecutionStore,
  createKeySpace,
  createShardedExecutionStore,
  createWorkerRegistry,
  type ExecutionStore,
  type KeySpace,
  openShardLayout,
  type ShardLayout,
  type WorkerHeartbeat,
} from '@ces/store';
import {
  createResponseConformance,
  deleteKeysWithPrefix,
  isolatedPrefix,
  testAccounts,
  waitFor,
  type ResponseConformance,
  type TestCredentials,
  must,
} from '@ces/testing';
import { Cluster, Redis } from 'ioredis';
import { createHttpsClient, type HttpResponse, type HttpsClient, type RequestOptions } from './https-client.ts';
import { ServiceProcess } from './service-process.ts';

export const CATALOGUE_DIR = fileURLToPath(new URL('../../choreos', import.meta.url));

export interface StackOptions {
  redisUrl: string;
  /** A Redis Cluster's nodes (`host:port,…`): the processes use it instead of `redisUrl`. */
  clusterNodes?: string;
  workers?: number;
  /** Extra environment for every process (API and workers). */
  env?: Record<string, string>;
  workerEnv?: Record<string, string>;
  choreosDir?: string;
}

export type Credential = { account: string; name: string; secret: string };

/** One API process of the stack; several may share its Redis prefix, as replicas do. */
export interface ApiInstance {
  process: ServiceProcess;
  port: number;
  http: HttpsClient;
}

/**
 * A running service for end-to-end tests: one API process and N worker processes against a real
 * Redis, under a key prefix of their own, speaking real HTTPS.
 */
export class Stack {
  readonly prefix = isolatedPrefix('e2e');
  readonly dataDir = mkdtempSync(join(tmpdir(), 'ces-e2e-'));
  readonly workers: ServiceProcess[] = [];
  /** Every API process; `api`, `port` and `http` are the first one's. */
  readonly apis: ApiInstance[] = [];
  /** Credentials every stack knows; secrets are random per stack. */
  readonly credentials: TestCredentials;
  readonly keys: KeySpace;
  api!: ServiceProcess;
  port = 0;
  http!: HttpsClient;
  redis!: Redis;
  /** Where the stack's runs live: QUEUE_SHARDS of its environment, 1 without it. */
  layout!: ShardLayout;
  private readonly options: StackOptions;
  private readonly env: Record<string, string>;
  private certificate = '';
  private store: ExecutionStore | undefined;
  /** Checks each answer of `call()` against the OpenAPI document the API serves. */
  private conform: ResponseConformance | undefined;

  constructor(options: StackOptions) {
    this.options = options;
    this.keys = createKeySpace(this.prefix);
    const { credentials, file } = testAccounts({ withOperator: true });
    this.credentials = credentials;
    const accountsFile = join(this.dataDir, 'accounts.json');
    writeFileSync(accountsFile, JSON.stringify(file));
    this.env = {
      ...(options.clusterNodes ? { REDIS_CLUSTER_NODES: options.clusterNodes } : { REDIS_URL: options.redisUrl }),
      REDIS_PREFIX: this.prefix,
      ACCOUNTS_FILE: accountsFile,
      DATA_DIR: this.dataDir,
      CHOREOS_DIR: options.choreosDir ?? CATALOGUE_DIR,
      SERVICE_HOST: 'choreos.test',
      // The same key for the API and every worker, as a deployment has; random per stack.
      SECRETS_KEY: randomBytes(32).toString('base64'),
      ...options.env,
    };
  }

  async start(): Promise<this> {
    const tls = await ensureSelfSignedCertificate(this.dataDir);
    this.port = await findFreePort();
    this.redis = this.options.clusterNodes
      ? // Every key the tests read carries the prefix's hash tag: one slot, which the Cluster client routes.
        (new Cluster(this.options.clusterNodes.split(',').map((node) => ({ host: node.split(':')[0], port: Number(node.split(':')[1]) }))) as unknown as Redis)
      : new Redis(this.options.redisUrl);
    // Tests may stop Redis on purpose; the client reconnects by itself.
    this.redis.on('error', () => {});
    this.layout = await openShardLayout(this.redis, this.keys, Number(this.env.QUEUE_SHARDS ?? '1'));
    this.api = new ServiceProcess('api', 'api', { ...this.env, PORT: String(this.port), BIND_ADDRESS: '127.0.0.1' });
    for (let i = 0; i < (this.options.workers ?? 1); i += 1) this.addWorker();
    this.certificate = readFileSync(tls.certFile, 'utf8');
    this.http = createHttpsClient(`https://127.0.0.1:${this.port}`, this.certificate);
    this.apis.push({ process: this.api, port: this.port, http: this.http });
    await this.waitForWorkers(this.workers.length);
    const document = await this.http.request('GET', '/service-api/1.0/openapi.json');
    if (document.status !== 200) throw new Error(`the OpenAPI document answered ${document.status}`);
    // The joins where old clients double a slash are read as one, as the API routes them.
    this.conform = createResponseConformance(document.json(), { routedPath: (path) => path.replace(/\/{2,}/g, '/') });
    return this;
  }

  /**
   * Starts one more API process on the same Redis prefix (with `env` over the stack's); resolves
   * with its index in `apis` once it is ready.
   */
  async addApi(env: Record<string, string> = {}): Promise<number> {
    const port = await findFreePort();
    const index = this.apis.length;
    const process = new ServiceProcess(`api-${index + 1}`, 'api', { ...this.env, ...env, PORT: String(port), BIND_ADDRESS: '127.0.0.1' });
    const http = createHttpsClient(`https://127.0.0.1:${port}`, this.certificate);
    this.apis.push({ process, port, http });
    await waitFor(
      async () => {
        if (!process.running) throw new Error(`${process.name} exited:\n${process.logs()}`);
        return (await http.request('GET', '/readyz')).status === 200;
      },
      { timeoutMs: 30_000, intervalMs: 100, what: `${process.name} to be ready` },
    );
    return index;
  }

  /** The execution store on the stack's prefix, for reading records (checkpoints, leases) directly. */
  get executions(): ExecutionStore {
    if (this.store === undefined) {
      const { layout, redis } = this;
      const reservations = layout.grows ? createAccountReservations({ redis, layout, retentionSeconds: 3600 }) : undefined;
      this.store = createShardedExecutionStore(
        layout,
        (shard) => createExecutionStore({ redis, keys: shard.keys, retentionSeconds: 3600, ...(reservations ? { reservations } : {}) }),
        reservations,
      );
    }
    return this.store;
  }

  /** The heartbeat records of live workers, as the registry reads them. */
  liveWorkers(): Promise<WorkerHeartbeat[]> {
    return createWorkerRegistry({ redis: this.redis, keys: this.keys, layout: this.layout }).list();
  }

  /** The worker whose WORKER_HOST is `host` (as addWorker numbers them), and its index in `workers`. */
  workerOn(host: string | undefined): { worker: ServiceProcess; index: number } {
    const index = Number(host?.split('.').at(-1)) - 1;
    const worker = this.workers[index];
    if (worker === undefined) throw new Error(`no worker for host ${host}`);
    return { worker, index };
  }

  addWorker(env: Record<string, string> = {}): ServiceProcess {
    const worker = new ServiceProcess(`worker-${this.workers.length + 1}`, 'worker', {
      ...this.env,
      WORKER_HOST: `10.0.0.${this.workers.length + 1}`,
      HTTP_ALLOW_PRIVATE_NETWORKS: 'true',
      // Where the callback URLs that steps hand out point: the first API.
      PUBLIC_BASE_URL: `https://127.0.0.1:${this.port}`,
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

  /**
   * A request to the interface with Basic credentials and the domain header of their account; its
   * answer is checked against the service's OpenAPI document (status, Content-Type, body).
   */
  async call(
    method: string,
    path: string,
    credential: Credential,
    options: RequestOptions & { accept?: string /** Index in `apis` of the API process to ask (default 0). */; via?: number } = {},
  ): Promise<HttpResponse> {
    const headers: Record<string, string> = {
      authorization: `Basic ${Buffer.from(`${credential.name}:${credential.secret}`).toString('base64')}`,
      'x-service-domain': `/${credential.account}/master`,
      accept: options.accept ?? 'application/json',
      ...options.headers,
    };
    if (options.body !== undefined && !('content-type' in headers)) headers['content-type'] = 'application/json';
    const { via, accept: _accept, ...request } = options;
    const http = via === undefined ? this.http : must(this.apis[via]).http;
    const answer = await http.request(method, `/service-api/1.0${path}`, { ...request, headers });
    const contentType = answer.headers['content-type'];
    this.conform?.(method, `/service-api/1.0${path}`, {
      status: answer.status,
      contentType: Array.isArray(contentType) ? contentType[0] : contentType,
      text: method.toUpperCase() === 'HEAD' ? '' : answer.text,
    });
    return answer;
  }

  /** Starts an asynchronous run and resolves with its execution id (the answer must be 202). */
  async startRun(choreo: string, credential: Credential, inputs: Record<string, string> = {}, via?: number): Promise<string> {
    const body = JSON.stringify({ inputs: Object.entries(inputs).map(([name, value]) => ({ name, value })) });
    const res = await this.call('POST', `/choreos/${choreo.replace(/^\//, '')}?mode=async`, credential, { body, ...(via === undefined ? {} : { via }) });
    if (res.status !== 202) throw new Error(`run of ${choreo} answered ${res.status}: ${res.text}`);
    return res.json().id as string;
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
    const apis = this.apis.length > 0 ? this.apis.map((a) => a.process) : [this.api];
    return [...apis, ...this.workers]
      .filter(Boolean)
      .map((p) => `--- ${p.name}\n${p.logs()}`)
      .join('\n');
  }

  async stop(): Promise<void> {
    const apis = this.apis.length > 0 ? this.apis.map((a) => a.process) : [this.api];
    await Promise.all([...apis, ...this.workers].filter(Boolean).map((p) => p.stop()));
    for (const api of this.apis.slice(1)) api.http.close();
    this.http?.close();
    if (this.redis) {
      for (const shard of this.layout?.shards ?? []) await deleteKeysWithPrefix(this.redis, shard.keys.prefix).catch(() => {});
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

/** A stack on a real six-node Redis Cluster of its own (three primaries, a replica each); `stop` stops both. */
export async function startStackOnCluster(
  options: Omit<StackOptions, 'redisUrl' | 'clusterNodes'>,
): Promise<{ cluster: LocalRedisCluster; stack: Stack; stop(): Promise<void> }> {
  const cluster = await startRedisCluster();
  try {
    const stack = await startStack({ ...options, redisUrl: 'redis://127.0.0.1:1', clusterNodes: cluster.nodeList });
    return {
      cluster,
      stack,
      async stop() {
        await stack.stop();
        await cluster.close();
      },
    };
  } catch (error) {
    await cluster.close();
    throw error;
  }
}
