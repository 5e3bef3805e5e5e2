import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { applyAccountsFile, createAccountStore, createAuthenticator, createCachedAccountStore } from '@ces/accounts';
import { loadCatalogue } from '@ces/choreos';
import { createLogger, type Logger } from '@ces/observability';
import {
  createDefinitionStore,
  createExecutionEvents,
  createExecutionQueue,
  createExecutionStore,
  createCallbackStore,
  createKeySpace,
  createPresetStore,
  createRedisConnection,
  createSecretCipher,
  waitUntilReady,
  type ExecutionJobData,
  type ExecutionStore,
  type KeySpace,
  type CallbackStore,
  type PresetStore,
  type SecretCipher,
} from '@ces/store';
import type { Queue } from 'bullmq';
import { deleteKeysWithPrefix, isolatedPrefix, testAccounts } from '@ces/testing';
import type { Redis } from 'ioredis';
import { createApp, type AppConfig, type AppDeps } from '../app.ts';
import { BASE_PATH } from '../base-path.ts';
import { createSealedErrorMask } from '../runs/sealed-error-mask.ts';
import { createPresetInputs } from '../runs/preset-inputs.ts';
import { createRunLauncher } from '../runs/run-launcher.ts';

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
  queue: Queue<ExecutionJobData>;
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
  /** A request to the interface under BASE_PATH, with Basic credentials and the domain header. */
  call(method: string, path: string, credential: TestCredential | undefined, options?: CallOptions): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The API app in this process, on real stores over the real test Redis (an isolated prefix), the
 * real catalogue and real accounts — no worker: runs stay queued, which is all these tests need.
 */
export async function startInProcessApp(options: {
  redisUrl: string;
  config?: Partial<AppConfig>;
  syncWaitMs?: number;
  maxRunningPerAccount?: number;
  maxStoredBytesPerAccount?: number;
  catalogueDir?: string;
  /** Wraps the store the run launcher uses, to make it fail as Redis would. */
  launcherStore?: (store: ExecutionStore) => ExecutionStore;
  /** How `?view=outputs` reads, given the app's store; unbounded on that store without it. */
  outputReads?: (store: ExecutionStore) => AppDeps['outputReads'];
  /** The app's logger; a silent one without it. */
  logger?: Logger;
  /** Request metrics; none without them. */
  metrics?: AppDeps['metrics'];
  /** Started as a service without SECRETS_KEY: no presets. */
  withoutSecretsKey?: boolean;
  maxPresetsPerAccount?: number;
}): Promise<InProcessApp> {
  const keys = createKeySpace(isolatedPrefix('api'));
  const redis = createRedisConnection(options.redisUrl, 'request', 'api-test');
  const queueConnection = createRedisConnection(options.redisUrl, 'queue', 'api-test-queue');
  const subscriber = createRedisConnection(options.redisUrl, 'subscriber', 'api-test-events');
  const connections = [redis, queueConnection, subscriber];
  await Promise.all(connections.map((connection) => waitUntilReady(connection)));

  const { credentials, file } = testAccounts({ withOperator: false });
  const accounts = createAccountStore({ redis, keys });
  await applyAccountsFile(accounts, file);

  const catalogue = await loadCatalogue(options.catalogueDir ?? CATALOGUE_DIR);
  const executions = createExecutionStore({ redis, keys, retentionSeconds: 300 });
  // Wired as the service wires them: the queue and the records its jobs follow on their own connection.
  const queue = createExecutionQueue({ connection: queueConnection, keys });
  const events = await createExecutionEvents({ subscriber, keys, listenFor: ['ends'], pollMs: 100 });
  const cachedAccounts = await createCachedAccountStore({ store: accounts, subscriber, keys });
  const cipher = options.withoutSecretsKey ? undefined : createSecretCipher({ current: randomBytes(32) });
  const presets = cipher ? createPresetStore({ redis, keys, cipher, maxPresetsPerAccount: options.maxPresetsPerAccount ?? 0 }) : undefined;
  const callbacks = cipher ? createCallbackStore({ redis, keys, urlKey: randomBytes(32) }) : undefined;
  const launcher = createRunLauncher({
    executions: (options.launcherStore ?? ((store) => store))(createExecutionStore({ redis: queueConnection, keys, retentionSeconds: 300 })),
    definitions: createDefinitionStore({ redis, keys }),
    queue,
    events,
    presetInputs: createPresetInputs({ ...(presets ? { presets } : {}), ...(cipher ? { cipher } : {}) }),
    config: {
      syncWaitMs: options.syncWaitMs ?? 100,
      maxRunningPerAccount: options.maxRunningPerAccount ?? 1000,
      maxStoredBytesPerAccount: options.maxStoredBytesPerAccount ?? 0,
      defaultTimeLimitSeconds: 900,
      quotaRetryAfterSeconds: 5,
    },
  });
  const app = createApp({
    // No throttle by default: every request in process comes from the same unknown client.
    config: {
      serviceHost: 'choreos.test',
      trustProxy: false,
      bodyLimitBytes: 1024 * 1024,
      maxAuthFailuresPerMinute: 0,
      maxPresetsPerAccount: options.maxPresetsPerAccount ?? 0,
      ...options.config,
    },
    catalogue,
    ...(presets ? { presets } : {}),
    ...(callbacks ? { callbacks } : {}),
    maskSealedInputs: createSealedErrorMask({ executions, ...(cipher ? { cipher } : {}) }),
    executions,
    ...(options.outputReads ? { outputReads: options.outputReads(executions) } : {}),
    queue,
    launcher,
    authenticator: createAuthenticator({ accounts: cachedAccounts }),
    probe: { redisAnswers: async () => (await redis.ping()) === 'PONG', liveWorkers: async () => 0 },
    isRedisAvailable: () => redis.status === 'ready',
    logger: options.logger ?? createLogger({ name: 'api-test', level: 'silent' }),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });

  return {
    app,
    redis,
    keys,
    executions,
    queue,
    presets,
    cipher,
    callbacks,
    credentials,
    call(method, path, credential, callOptions = {}) {
      const headers: Record<string, string> = { accept: callOptions.accept ?? 'application/json' };
      if (credential) {
        headers.authorization = `Basic ${Buffer.from(`${credential.name}:${credential.secret}`).toString('base64')}`;
        headers['x-service-domain'] = `/${credential.account}/master`;
      }
      if (callOptions.body !== undefined) headers['content-type'] = 'application/json';
      Object.assign(headers, callOptions.headers);
      for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
      const bindings = callOptions.clientAddress === undefined ? undefined : { incoming: { socket: { remoteAddress: callOptions.clientAddress } } };
      return Promise.resolve(
        app.request(`${BASE_PATH}${path}`, { method, headers, ...(callOptions.body !== undefined ? { body: callOptions.body } : {}) }, bindings),
      );
    },
    async close() {
      await cachedAccounts.close();
      await events.close();
      await queue.close();
      await deleteKeysWithPrefix(redis, keys.prefix);
      await Promise.all(connections.map((connection) => connection.quit().catch(() => connection.disconnect())));
    },
  };
}
