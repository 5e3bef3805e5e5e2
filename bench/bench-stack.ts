import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSelfSignedCertificate, findFreePort, type LocalRedis, type LocalRedisCluster, startLocalRedis, startRedisCluster } from '@ces/local-runtime';
import { createKeySpace, type KeySpace } from '@ces/store';
import { Queue } from 'bullmq';
import { Cluster, Redis } from 'ioredis';
import { startBenchProcess, type BenchProcess } from './bench-process.ts';
import { must } from '@ces/testing';

export const BASELINE_QUEUE = 'bench-baseline';
export const BASELINE_PREFIX = '{bench-baseline}';
/** The service's default; the baseline workers use the same. */
export const WORKER_CONCURRENCY = 8;

export interface BenchStackOptions {
  root: string;
  /** Where process logs (and CPU profiles) go. */
  logDir: string;
  workers: number;
  baselineWorkers: number;
  /** Processes started with --cpu-prof. */
  profile: { api: boolean; worker: boolean; httpsProducer: boolean; dir: string };
  /**
   * The service on a Redis Cluster of this many primaries, each with a replica (REDIS_CLUSTER_NODES),
   * instead of the single Redis, which then serves the baselines alone.
   */
  clusterPrimaries?: number;
  /** QUEUE_SHARDS of the service (1 when absent). */
  queueShards?: number;
  /** More environment for the service's processes (REDIS_REPLICA_ACKS, say). */
  serviceEnv?: Record<string, string>;
}

/**
 * Everything the benchmark measures, started by itself on 127.0.0.1: a Redis of its own, the API
 * and worker processes from the repository's entry points, and the baselines (bare Hono over the
 * same TLS setup, raw BullMQ no-op workers on the same Redis, and bare Hono queueing their jobs).
 */
export interface BenchStack {
  origin: string;
  caFile: string;
  /** The key of `caFile`'s certificate (127.0.0.1, localhost), for endpoints of the bench's own that workers call (webhooks). */
  tlsKeyFile: string;
  redisUrl: string;
  redis: Redis;
  keys: KeySpace;
  /** Headers of an application key of the bench account, as a program calling the API sends them. */
  headers: Record<string, string>;
  bareHonoOrigin: string;
  /** Bare Hono whose POST handler queues a job for the no-op workers (bench/https-producer-server.ts). */
  httpsProducerOrigin: string;
  baselineQueue: Queue;
  setWorkers(count: number): Promise<void>;
  /** The service's Redis Cluster, when it runs on one. */
  cluster?: LocalRedisCluster;
  /**
   * Process ids by name (api, worker-N, redis, bare-hono, https-producer, bullmq-baseline-N, and a
   * Cluster's nodes as redis:<port>), for CPU accounting.
   */
  pids(): Record<string, number>;
  workerCount(): number;
  close(): Promise<void>;
}

export async function startBenchStack(options: BenchStackOptions): Promise<BenchStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ces-bench-'));
  mkdirSync(options.logDir, { recursive: true });
  const processes: BenchProcess[] = [];
  const workers: BenchProcess[] = [];
  let redisServer: LocalRedis | undefined;
  let cluster: LocalRedisCluster | undefined;
  let redis: Redis | undefined;
  let baselineQueue: Queue | undefined;

  async function close() {
    // Each part goes whatever another's stop did.
    await Promise.allSettled([...processes, ...workers].map((p) => p.stop()));
    await baselineQueue?.close().catch(() => {});
    redis?.disconnect();
    await Promise.allSettled([redisServer?.close(), cluster?.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  }

  try {
    // Throwaway data: no AOF, so the figures are not those of fsync on a shared disk.
    redisServer = await startLocalRedis({ dataDir: join(dataDir, 'redis'), appendOnly: false });
    if (options.clusterPrimaries) {
      cluster = await startRedisCluster({ primaries: options.clusterPrimaries });
      redis = new Cluster(cluster.nodes.map(({ host, port }) => ({ host, port }))) as unknown as Redis;
      // Its nodes stop before it has quite let go of them.
      redis.on('error', () => {});
    } else redis = new Redis(redisServer.url);
    const tls = await ensureSelfSignedCertificate(dataDir);
    const prefix = '{ces}';
    const keys = createKeySpace(prefix);
    const appKey = randomBytes(32).toString('base64url');
    const accountsFile = join(dataDir, 'accounts.json');
    writeFileSync(
      accountsFile,
      JSON.stringify({
        accounts: [{ name: 'bench', users: [], apps: [{ name: 'bench-app', key: appKey, choreos: ['/**'], rights: ['choreos', 'webhooks'] }] }],
      }),
      {
        mode: 0o600,
      },
    );
    const port = await findFreePort();
    const honoPort = await findFreePort();
    const producerPort = await findFreePort();
    const env = {
      ...(cluster ? { REDIS_CLUSTER_NODES: cluster.nodeList } : { REDIS_URL: redisServer.url }),
      REDIS_PREFIX: prefix,
      QUEUE_SHARDS: String(options.queueShards ?? 1),
      CHOREOS_DIR: join(options.root, 'choreos'),
      LOG_LEVEL: 'info',
      // As a deployment has: webhooks (scenario 14) keep their secrets with it.
      SECRETS_KEY: randomBytes(32).toString('base64'),
      ...options.serviceEnv,
    };
    const logFile = (name: string) => join(options.logDir, `${name}.log`);
    // Each profile named after its process; a worker restarted by scenario 7 gets a new number.
    const profileArgs = (on: boolean, name: string) =>
      on ? ['--cpu-prof', `--cpu-prof-dir=${options.profile.dir}`, `--cpu-prof-name=${name}.cpuprofile`] : [];

    const api = startBenchProcess({
      name: 'api',
      entry: join(options.root, 'apps/api/src/main.ts'),
      cwd: options.root,
      logFile: logFile('api'),
      nodeArgs: profileArgs(options.profile.api, 'api'),
      env: {
        ...env,
        PORT: String(port),
        BIND_ADDRESS: '127.0.0.1',
        ACCOUNTS_FILE: accountsFile,
        DATA_DIR: dataDir,
        TLS_CERT_FILE: tls.certFile,
        TLS_KEY_FILE: tls.keyFile,
        // Load far beyond any sensible quota is the point here.
        MAX_RUNNING_PER_ACCOUNT: '0',
      },
    });
    processes.push(api);
    processes.push(
      startBenchProcess({
        name: 'bare-hono',
        entry: join(options.root, 'bench/bare-hono-server.ts'),
        args: [JSON.stringify({ port: honoPort, certFile: tls.certFile, keyFile: tls.keyFile })],
        cwd: options.root,
        logFile: logFile('bare-hono'),
        env: {},
      }),
    );
    processes.push(
      startBenchProcess({
        name: 'https-producer',
        entry: join(options.root, 'bench/https-producer-server.ts'),
        args: [
          JSON.stringify({
            port: producerPort,
            certFile: tls.certFile,
            keyFile: tls.keyFile,
            redisUrl: redisServer.url,
            prefix: BASELINE_PREFIX,
            queue: BASELINE_QUEUE,
          }),
        ],
        cwd: options.root,
        logFile: logFile('https-producer'),
        nodeArgs: profileArgs(options.profile.httpsProducer, 'https-producer'),
        env: {},
      }),
    );
    for (let i = 0; i < options.baselineWorkers; i += 1) {
      processes.push(
        startBenchProcess({
          name: `bullmq-baseline-${i + 1}`,
          entry: join(options.root, 'bench/bullmq-noop-worker.ts'),
          args: [JSON.stringify({ redisUrl: redisServer.url, prefix: BASELINE_PREFIX, queue: BASELINE_QUEUE, concurrency: WORKER_CONCURRENCY })],
          cwd: options.root,
          logFile: logFile(`bullmq-baseline-${i + 1}`),
          env: {},
        }),
      );
    }
    baselineQueue = new Queue(BASELINE_QUEUE, { connection: new Redis(redisServer.url, { maxRetriesPerRequest: null }), prefix: BASELINE_PREFIX });
    const ca = readFileSync(tls.certFile, 'utf8');
    const origin = `https://127.0.0.1:${port}`;
    const bareHonoOrigin = `https://127.0.0.1:${honoPort}`;
    const httpsProducerOrigin = `https://127.0.0.1:${producerPort}`;

    let started = 0;
    const addWorker = () => {
      started += 1;
      const worker = startBenchProcess({
        name: `worker-${started}`,
        entry: join(options.root, 'apps/worker/src/main.ts'),
        cwd: options.root,
        logFile: logFile(`worker-${started}`),
        nodeArgs: profileArgs(options.profile.worker, `worker-${started}`),
        env: {
          ...env,
          WORKER_HOST: `10.0.0.${started}`,
          WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
          // Webhooks go to the bench's own endpoint on 127.0.0.1, under its certificate (scenario 14).
          HTTP_ALLOW_PRIVATE_NETWORKS: 'true',
          NODE_EXTRA_CA_CERTS: tls.certFile,
        },
      });
      workers.push(worker);
    };

    const readyWorkers = async (): Promise<number> => {
      for (const p of [...processes, ...workers]) {
        if (!p.running()) throw new Error(`${p.name} exited:\n${p.logTail()}`);
      }
      const answer = await httpsJson(`${origin}/readyz`, ca).catch(() => undefined);
      return answer?.status === 'ready' ? Number(answer.workers) : -1;
    };

    const setWorkers = async (count: number) => {
      while (workers.length > count) await must(workers.pop()).stop();
      while (workers.length < count) addWorker();
      // A stopped worker removes its heartbeat on the way out, so the count is exact.
      await until(async () => (await readyWorkers()) === count, 60_000, `the API and ${count} workers`);
    };

    await setWorkers(options.workers);
    await until(async () => (await httpsJson(`${bareHonoOrigin}/`, ca).catch(() => undefined)) !== undefined, 30_000, 'bare Hono');
    await until(async () => (await must(baselineQueue).getWorkersCount()) >= options.baselineWorkers, 30_000, 'the BullMQ baseline workers');
    // Ready once it has queued a real job (the no-op workers run it like any other).
    await until(
      async () =>
        typeof (await httpsJson(`${httpsProducerOrigin}/`, ca, { method: 'POST', body: JSON.stringify({ inputs: [] }) }).catch(() => undefined))?.id ===
        'string',
      30_000,
      'the HTTPS producer',
    );

    return {
      origin,
      caFile: tls.certFile,
      tlsKeyFile: tls.keyFile,
      redisUrl: redisServer.url,
      redis,
      ...(cluster ? { cluster } : {}),
      keys,
      headers: {
        authorization: `Basic ${Buffer.from(`bench-app:${appKey}`).toString('base64')}`,
        'x-service-domain': '/bench/master',
        accept: 'application/json',
      },
      bareHonoOrigin,
      httpsProducerOrigin,
      baselineQueue,
      setWorkers,
      workerCount: () => workers.length,
      pids: () => {
        const pids: Record<string, number> = { redis: must(must(redisServer).process.pid) };
        for (const node of cluster?.nodes ?? []) if (node.process.pid !== undefined) pids[`redis:${node.port}`] = node.process.pid;
        for (const p of [...processes, ...workers]) if (p.child.pid !== undefined && p.running()) pids[p.name] = p.child.pid;
        return pids;
      },
      close,
    };
  } catch (error) {
    const logs = [...processes, ...workers].map((p) => `--- ${p.name}\n${p.logTail(2_000)}`).join('\n');
    await close();
    throw new Error(`${(error as Error).message}\n${logs}`);
  }
}

/** Polls until `probe` is true; fails after `timeoutMs`. Returns the epoch ms at which it was. */
export async function until(probe: () => Promise<boolean>, timeoutMs: number, what: string, intervalMs = 25): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return Date.now();
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A one-off request for readiness checks (not for measuring: the load generator does that); a GET without `init`. */
export function httpsJson(url: string, ca: string, init?: { method: 'POST'; body: string }): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const options = {
      method: init?.method ?? 'GET',
      ca,
      servername: 'localhost',
      agent: false,
      headers: init ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(init.body) } : {},
    };
    const request = httpsRequest(url, options, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      response.on('end', () => {
        try {
          resolve(JSON.parse(text) as Record<string, unknown>);
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    request.on('error', reject);
    request.setTimeout(2_000, () => request.destroy(new Error('timeout')));
    request.end(init?.body);
  });
}
