import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { applyAccountsFile, createAccountStore } from '@ces/accounts';
import { loadCatalogue } from '@ces/catalogue';
import { createLogger, type HttpMetrics, type Logger } from '@ces/observability';
import {
  createKeySpace,
  createRedisConnection,
  createSecretCipher,
  openShardLayout,
  waitUntilReady,
  type AccountChoreoLimits,
  type CallbackStore,
  type ExecutionJobData,
  type ExecutionQueues,
  type ExecutionStore,
  type KeySpace,
  type ShardLayout,
  type PresetStore,
  type SecretCipher,
} from '@ces/store';
import { createResponseConformance, isolatedPrefix, deleteKeysWithPrefix, testAccounts } from '@ces/testing';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ApiMetrics } from '../api-metrics.ts';
import { type ApiConnections, type StoreWrappers, wireApi } from '../api-wiring.ts';
import type { AppConfig, createApp } from '../app.ts';
import { BASE_PATH } from '../base-path.ts';
import type { OutputReadGate } from '../output-read-gate.ts';
import type { RunEventFeed } from '../events/run-event-feed.ts';
import { createOpenApiDocument } from '../openapi/openapi-document.ts';
import { interfacePath } from '../interface-path.ts';

export const CATALOGUE_DIR = fileURLToPath(new URL('../../../../choreos', import.meta.url));

export interface TestCredential {
  account: string;
  name: string;
  secret: string;
}

export interface CallOptions {
  body?: string;
  accept?: string;
  headers?: Record<string, string>;
  /** The socket's peer address, as @hono/node-server would give it; none by default. */
  clientAddress?: string;
}

export interface InProcessApp {
  app: ReturnType<typeof createApp>;
  redis: Redis;
  keys: KeySpace;
  executions: ExecutionStore;
  /** Shard 0's queue: every run's, with one shard. */
  queue: Queue<ExecutionJobData>;
  queues: ExecutionQueues;
  layout: ShardLayout;
  metrics: ApiMetrics;
  /** The process's feed of run events. */
  runEvents: RunEventFeed;
  /** The accounts' presets, sealed with the app's secrets key (absent with `withoutSecretsKey`). */
  presets: PresetStore | undefined;
  cipher: SecretCipher | undefined;
  /** What callback URLs stand for (absent with `withoutSecretsKey`). */
  callbacks: CallbackStore | undefined;
  credentials: {
    /** acme: a user with every Choreo, an application limited to Encoding, and one with everything. */
    alice: TestCredential;
    encodingApp: TestCredential;
    acmeApp: TestCredential;
    /** other: a second account. */
    bob: TestCredential;
  };
  /**
   * A request to the interface under BASE_PATH, with Basic credentials and the domain header; its
   * answer is checked against the OpenAPI document (status, Content-Type, body) before it is returned.
   */
  call(method: string, path: string, credential: TestCredential | undefined, options?: CallOptions): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The API app in this process, wired as the service wires it (wireApi), on the real test Redis (an
 * isolated prefix), the real catalogue and real accounts — no worker: runs stay queued, which is
 * all these tests need.
 */
export async function startInProcessApp(options: {
  redisUrl: string;
  config?: Partial<AppConfig>;
  syncWaitMs?: number;
  maxRunningPerAccount?: number;
  maxStoredBytesPerAccount?: number;
  catalogueDir?: string;
  /** Bounds on each account's own Choreos; 100 Choreos and 1 MiB without them. */
  accountChoreoLimits?: AccountChoreoLimits;
  /** Wraps the stores of the app, to make them fail or count as Redis would. */
  wrap?: StoreWrappers;
  /** Replaces the gate of `?view=outputs`; the service's limits without it. */
  outputReadGate?: OutputReadGate;
  /** Wraps the request metrics, to watch what is observed. */
  httpMetrics?: (http: HttpMetrics) => HttpMetrics;
  /** The app's logger; a silent one without it. */
  logger?: Logger;
  /** Started as a service without SECRETS_KEY: no presets. */
  withoutSecretsKey?: boolean;
  maxPresetsPerAccount?: number;
  maxSchedulesPerAccount?: number;
  /** Seconds an ended run is kept; 300 without it. */
  retentionSeconds?: number;
  /** QUEUE_SHARDS; 1 without it. */
  queueShards?: number;
}): Promise<InProcessApp> {
  const keys = createKeySpace(isolatedPrefix('api'));
  const connections: ApiConnections = {
    requests: createRedisConnection(options.redisUrl, 'request', 'api-test'),
    accepting: createRedisConnection(options.redisUrl, 'queue', 'api-test-queue'),
    outputs: createRedisConnection(options.redisUrl, 'request', 'api-test-outputs'),
    events: createRedisConnection(options.redisUrl, 'subscriber', 'api-test-events'),
  };
  const all = Object.values(connections);
  await Promise.all(all.map((connection) => waitUntilReady(connection)));
  const layout = await openShardLayout(connections.requests, keys, options.queueShards ?? 1);

  const { credentials, file } = testAccounts({ withOperator: false });
  const accounts = createAccountStore({ redis: connections.requests, keys });
  await applyAccountsFile(accounts, file);

  const cipher = options.withoutSecretsKey ? undefined : createSecretCipher({ current: randomBytes(32) });
  const wired = await wireApi({
    config: {
      // No throttle by default: every request in process comes from the same unknown client.
      app: {
        serviceHost: 'choreos.test',
        trustProxy: false,
        bodyLimitBytes: 1024 * 1024,
        maxAuthFailuresPerMinute: 0,
        maxAuthFailuresPerAddressPerMinute: 0,
        maxPresetsPerAccount: options.maxPresetsPerAccount ?? 0,
        maxSchedulesPerAccount: options.maxSchedulesPerAccount ?? 0,
        ...options.config,
      },
      launcher: {
        syncWaitMs: options.syncWaitMs ?? 100,
        maxRunningPerAccount: options.maxRunningPerAccount ?? 1000,
        maxStoredBytesPerAccount: options.maxStoredBytesPerAccount ?? 0,
        defaultTimeLimitSeconds: 900,
        quotaRetryAfterSeconds: 5,
      },
      retentionSeconds: options.retentionSeconds ?? 300,
      accountChoreos: { store: options.accountChoreoLimits ?? { maxCount: 100, maxBytes: 1024 * 1024 } },
      // Unbounded unless a test gives its own gate.
      outputReads: { perProcess: 1_000, perAccount: 1_000, maxWaitMs: 60_000 },
      endPollMs: 100,
    },
    keys,
    layout,
    connections,
    catalogue: await loadCatalogue(options.catalogueDir ?? CATALOGUE_DIR),
    accounts,
    ...(cipher ? { secrets: { cipher, callbackUrlKey: randomBytes(32) } } : {}),
    logger: options.logger ?? createLogger({ name: 'api-test', level: 'silent' }),
    ...(options.wrap ? { wrap: options.wrap } : {}),
    ...(options.outputReadGate ? { outputReadGate: options.outputReadGate } : {}),
    ...(options.httpMetrics ? { httpMetrics: options.httpMetrics } : {}),
  });
  const { app, executions, queues, metrics, presets, callbacks, runEvents } = wired;
  const redis = connections.requests;
  // Routed as the service routes it: the doubled slashes at the joins that old clients send are dropped.
  const conform = createResponseConformance(createOpenApiDocument(), { routedPath: interfacePath });

  return {
    app,
    redis,
    keys,
    executions,
    queue: queues.all[0] as Queue<ExecutionJobData>,
    queues,
    layout,
    metrics,
    runEvents,
    presets,
    cipher,
    callbacks,
    credentials,
    async call(method, path, credential, callOptions = {}) {
      const headers: Record<string, string> = { accept: callOptions.accept ?? 'application/json' };
      if (credential) {
        headers.authorization = `Basic ${Buffer.from(`${credential.name}:${credential.secret}`).toString('base64')}`;
        headers['x-service-domain'] = `/${credential.account}/master`;
      }
      if (callOptions.body !== undefined) headers['content-type'] = 'application/json';
      Object.assign(headers, callOptions.headers);
      for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
      const bindings = callOptions.clientAddress === undefined ? undefined : { incoming: { socket: { remoteAddress: callOptions.clientAddress } } };
      const response = await app.request(
        `${BASE_PATH}${path}`,
        { method, headers, ...(callOptions.body !== undefined ? { body: callOptions.body } : {}) },
        bindings,
      );
      const text = method.toUpperCase() === 'HEAD' ? '' : await response.clone().text();
      conform(method, `${BASE_PATH}${path}`, { status: response.status, contentType: response.headers.get('content-type') ?? undefined, text });
      return response;
    },
    async close() {
      await wired.close();
      for (const shard of layout.shards) await deleteKeysWithPrefix(redis, shard.keys.prefix);
      await Promise.all(all.map((connection) => connection.quit().catch(() => connection.disconnect())));
    },
  };
}
