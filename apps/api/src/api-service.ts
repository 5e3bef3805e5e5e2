import { applyAccountsFile, createAccountStore, createAuthenticator, createCachedAccountStore, readAccountsFile } from '@ces/accounts';
import { loadCatalogue } from '@ces/choreos';
import { forVariable, listenVariables } from '@ces/config';
import { ensureSelfSignedCertificate, readCertificate } from '@ces/local-runtime';
import type { Logger } from '@ces/observability';
import {
  createDefinitionStore,
  createExecutionEvents,
  createExecutionQueue,
  createExecutionStore,
  callbackUrlKey,
  createCallbackStore,
  createKeySpace,
  createPresetStore,
  createRedisConnection,
  createSecretCipher,
  createWorkerRegistry,
  waitUntilReady,
} from '@ces/store';
import { createApiMetrics } from './api-metrics.ts';
import { createApp } from './app.ts';
import type { ApiConfig } from './config.ts';
import { countEndedRuns, countStartedRuns } from './runs/instrument-runs.ts';
import { createSealedErrorMask } from './runs/sealed-error-mask.ts';
import { createPresetInputs } from './runs/preset-inputs.ts';
import { createRunLauncher } from './runs/run-launcher.ts';
import { CONNECTION_TIMEOUTS, listen, type RunningServer } from './server.ts';
import { createOutputReadGate } from './output-read-gate.ts';
import { withTimeout } from './with-timeout.ts';

const WORKER_HEARTBEAT_TTL_MS = 15_000;

export interface ApiService {
  port: number;
  close(): Promise<void>;
}

/**
 * Answers with outputs at once per API process, and per account: each may hold a few copies of
 * 16 Mi characters (the reply, the parsed outputs, the answer) until it is sent.
 */
const OUTPUT_READS = { perProcess: 8, perAccount: 2, maxWaitMs: 10_000 };

/** Wires the API from its configuration: connections, stores, catalogue, accounts, HTTPS server. */
export async function startApiService(config: ApiConfig, logger: Logger): Promise<ApiService> {
  const keys = createKeySpace(config.REDIS_PREFIX);
  const redis = createRedisConnection(config.REDIS_URL, 'request', 'api', { commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS });
  const queueConnection = createRedisConnection(config.REDIS_URL, 'queue', 'api-queue');
  const subscriber = createRedisConnection(config.REDIS_URL, 'subscriber', 'api-events');
  // Outputs (up to 16 Mi characters each) on a connection of their own: replies come in order,
  // and a burst of large ones would otherwise hold every status poll behind it.
  const outputsConnection = createRedisConnection(config.REDIS_URL, 'request', 'api-outputs', { commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS });
  const connections = [redis, queueConnection, subscriber, outputsConnection];
  for (const connection of connections) {
    connection.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis connection error'));
  }
  logger.info('waiting for Redis');
  await Promise.all(connections.map((connection) => waitUntilReady(connection, Number.POSITIVE_INFINITY)));

  const catalogue = await forVariable('CHOREOS_DIR', () => loadCatalogue(config.CHOREOS_DIR));
  const invalid = catalogue.list().filter((entry) => !entry.valid);
  logger.info({ choreos: catalogue.list().length, invalid: invalid.map((entry) => entry.id) }, 'catalogue loaded');

  const accounts = createAccountStore({ redis, keys });
  if (config.ACCOUNTS_FILE) {
    const kept = await applyAccountsFile(accounts, await readAccountsFile(config.ACCOUNTS_FILE));
    logger.info('accounts file applied');
    if (kept.length > 0) logger.warn({ kept }, 'accounts file entries left as the admin command line last set them');
  }

  const executions = createExecutionStore({ redis, keys, retentionSeconds: config.RETENTION_SECONDS });
  const definitions = createDefinitionStore({ redis, keys });
  // A run's record and its job go out on one connection, so that they reach Redis in that order.
  // Everything else has its own connection, free of BullMQ's scripts (see the `queue` role).
  const queue = createExecutionQueue({ connection: queueConnection, keys });
  const acceptedExecutions = createExecutionStore({ redis: queueConnection, keys, retentionSeconds: config.RETENTION_SECONDS });
  // Without a listener BullMQ prints its connection errors to stderr, outside the JSON log.
  queue.on('error', (error: Error) => logger.warn({ err: error.message }, 'queue error'));
  const events = await createExecutionEvents({ subscriber, keys, listenFor: ['ends'] });
  // Authentication reads credentials on every request; the store's writes announce each change, so
  // remembering them in process keeps a revocation effective at once.
  const credentials = await createCachedAccountStore({ store: accounts, subscriber, keys });
  const workers = createWorkerRegistry({ redis, keys, ttlMs: WORKER_HEARTBEAT_TTL_MS });
  const cipher = config.SECRETS_KEY ? createSecretCipher({ current: config.SECRETS_KEY, previous: config.SECRETS_KEY_PREVIOUS }) : undefined;
  if (!cipher) logger.warn('SECRETS_KEY is not set: presets are not available (their requests answer 503)');
  const presets = cipher ? createPresetStore({ redis, keys, cipher, maxPresetsPerAccount: config.MAX_PRESETS_PER_ACCOUNT }) : undefined;
  const metrics = createApiMetrics({ queue, executions, accounts, workers });
  metrics.redis.instrument(redis, 'api');
  metrics.redis.instrument(queueConnection, 'api-queue');
  metrics.redis.instrument(subscriber, 'api-events');
  metrics.redis.instrument(outputsConnection, 'api-outputs');
  const launcher = countStartedRuns(
    createRunLauncher({
      logger,
      executions: acceptedExecutions,
      definitions,
      queue,
      events,
      presetInputs: createPresetInputs({ ...(presets ? { presets } : {}), ...(cipher ? { cipher } : {}) }),
      config: {
        syncWaitMs: config.SYNC_WAIT_SECONDS * 1000,
        maxRunningPerAccount: config.MAX_RUNNING_PER_ACCOUNT,
        maxStoredBytesPerAccount: config.MAX_STORED_BYTES_PER_ACCOUNT,
        defaultTimeLimitSeconds: config.EXECUTION_TIME_LIMIT_SECONDS,
        quotaRetryAfterSeconds: 5,
        createTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
      },
    }),
    metrics.executions,
  );

  const app = createApp({
    config: {
      serviceHost: config.SERVICE_HOST,
      trustProxy: config.TRUST_PROXY,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      maxAuthFailuresPerMinute: config.MAX_AUTH_FAILURES_PER_MINUTE,
      maxPresetsPerAccount: config.MAX_PRESETS_PER_ACCOUNT,
    },
    catalogue,
    ...(presets ? { presets } : {}),
    ...(config.SECRETS_KEY ? { callbacks: createCallbackStore({ redis, keys, urlKey: callbackUrlKey(config.SECRETS_KEY) }) } : {}),
    maskSealedInputs: createSealedErrorMask({ executions, ...(cipher ? { cipher } : {}) }),
    executions: countEndedRuns(executions, metrics.executions),
    outputReads: {
      executions: createExecutionStore({ redis: outputsConnection, keys, retentionSeconds: config.RETENTION_SECONDS }),
      gate: createOutputReadGate(OUTPUT_READS),
    },
    queue,
    launcher,
    authenticator: createAuthenticator({ accounts: credentials }),
    probe: {
      redisAnswers: async () => {
        try {
          return (await withTimeout(redis.ping(), 1_000)) === 'PONG';
        } catch {
          return false;
        }
      },
      liveWorkers: () => workers.count(),
    },
    isRedisAvailable: () => redis.status === 'ready' && queueConnection.status === 'ready' && outputsConnection.status === 'ready',
    logger,
    metrics: { registry: metrics.registry, http: metrics.http },
    ops: { workers, queue },
  });

  const tls = config.TRUST_PROXY
    ? undefined
    : config.TLS_CERT_FILE && config.TLS_KEY_FILE
      ? await forVariable('TLS_CERT_FILE, TLS_KEY_FILE', () => readCertificate({ certFile: config.TLS_CERT_FILE!, keyFile: config.TLS_KEY_FILE! }))
      : await forVariable('DATA_DIR', async () => readCertificate(await ensureSelfSignedCertificate(config.DATA_DIR)));
  const server: RunningServer = await forVariable(listenVariables({ port: 'PORT', address: 'BIND_ADDRESS' }), () =>
    listen({
      fetch: app.fetch,
      port: config.PORT,
      hostname: config.BIND_ADDRESS,
      tls,
      // A synchronous run's request is idle while it waits: the server must not close it first.
      timeouts: { ...CONNECTION_TIMEOUTS, idleMs: Math.max(CONNECTION_TIMEOUTS.idleMs, config.SYNC_WAIT_SECONDS * 1000 + 30_000) },
      onError: (error) => logger.error({ err: error }, 'server error'),
    }),
  );
  logger.info({ port: server.port, tls: Boolean(tls) }, 'api listening');

  return {
    port: server.port,
    async close() {
      await server.close();
      await credentials.close();
      await events.close();
      await queue.close();
      await Promise.all(connections.map((connection) => connection.quit().catch(() => connection.disconnect())));
    },
  };
}
