import { applyAccountsFile, createAccountStore, readAccountsFile } from '@ces/accounts';
import { loadCatalogue } from '@ces/catalogue';
import { forVariable, listenVariables } from '@ces/config';
import { ensureSelfSignedCertificate, readCertificate } from '@ces/local-runtime';
import type { Logger } from '@ces/observability';
import {
  callbackUrlKey,
  createKeySpace,
  createRedisConnection,
  createSecretCipher,
  mirrorAllWebhookEvents,
  openShardLayout,
  redisTarget,
  waitUntilReady,
  type StoreCrashSeamHook,
} from '@ces/store';
import { type ApiConnections, wireApi } from './api-wiring.ts';
import type { ApiConfig } from './config.ts';
import { CONNECTION_TIMEOUTS, listen, type RunningServer } from './server.ts';

export interface ApiService {
  port: number;
  close(): Promise<void>;
}

/**
 * Answers with outputs at once per API process, and per account: each may hold a few copies of
 * 16 Mi characters (the reply, the parsed outputs, the answer) until it is sent.
 */
const OUTPUT_READS = { perProcess: 8, perAccount: 2, maxWaitMs: 10_000 };

/** Starts the API from its configuration: connections, catalogue, accounts, the wired app, HTTPS server. */
export async function startApiService(
  config: ApiConfig,
  logger: Logger,
  options: {
    /** Tests only: called at each of the store's crash seams; a test holds the API there to kill it. */
    atSeam?: StoreCrashSeamHook;
  } = {},
): Promise<ApiService> {
  const keys = createKeySpace(config.REDIS_PREFIX);
  const timeouts = { commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS };
  const connections: ApiConnections = {
    requests: createRedisConnection(redisTarget(config), 'request', 'api', timeouts),
    accepting: createRedisConnection(redisTarget(config), 'queue', 'api-queue'),
    outputs: createRedisConnection(redisTarget(config), 'request', 'api-outputs', timeouts),
    events: createRedisConnection(redisTarget(config), 'subscriber', 'api-events'),
  };
  const all = Object.values(connections);
  for (const connection of all) {
    connection.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis connection error'));
  }
  logger.info('waiting for Redis');
  await Promise.all(all.map((connection) => waitUntilReady(connection, Number.POSITIVE_INFINITY)));

  const layout = await openShardLayout(connections.requests, keys, config.QUEUE_SHARDS);
  // Shards this process may have just added get every account's webhook event counts.
  await mirrorAllWebhookEvents(connections.requests, layout);
  const catalogue = await forVariable('CHOREOS_DIR', () => loadCatalogue(config.CHOREOS_DIR));
  const invalid = catalogue.list().filter((entry) => !entry.valid);
  logger.info({ choreos: catalogue.list().length, invalid: invalid.map((entry) => entry.id) }, 'catalogue loaded');

  const accounts = createAccountStore({ redis: connections.requests, keys });
  if (config.ACCOUNTS_FILE) {
    const kept = await applyAccountsFile(accounts, await readAccountsFile(config.ACCOUNTS_FILE));
    logger.info('accounts file applied');
    if (kept.length > 0) logger.warn({ kept }, 'accounts file entries left as the admin command line last set them');
  }

  if (!config.SECRETS_KEY) logger.warn('SECRETS_KEY is not set: presets are not available (their requests answer 503)');
  const secrets = config.SECRETS_KEY
    ? {
        cipher: createSecretCipher({ current: config.SECRETS_KEY, previous: config.SECRETS_KEY_PREVIOUS }),
        callbackUrlKey: callbackUrlKey(config.SECRETS_KEY),
      }
    : undefined;

  const wired = await wireApi({
    config: {
      app: {
        serviceHost: config.SERVICE_HOST,
        trustProxy: config.TRUST_PROXY,
        bodyLimitBytes: config.BODY_LIMIT_BYTES,
        maxAuthFailuresPerMinute: config.MAX_AUTH_FAILURES_PER_MINUTE,
        maxAuthFailuresPerAddressPerMinute: config.MAX_AUTH_FAILURES_PER_ADDRESS_PER_MINUTE,
        maxPresetsPerAccount: config.MAX_PRESETS_PER_ACCOUNT,
        eventsHeartbeatMs: config.EVENTS_HEARTBEAT_MS,
        consoleSessionMs: config.CONSOLE_SESSION_MINUTES * 60_000,
        maxWebhooksPerAccount: config.MAX_WEBHOOKS_PER_ACCOUNT,
        maxSchedulesPerAccount: config.MAX_SCHEDULES_PER_ACCOUNT,
        ...(config.PUBLIC_BASE_URL !== undefined ? { publicBaseUrl: config.PUBLIC_BASE_URL } : {}),
      },
      launcher: {
        syncWaitMs: config.SYNC_WAIT_SECONDS * 1000,
        maxRunningPerAccount: config.MAX_RUNNING_PER_ACCOUNT,
        maxStoredBytesPerAccount: config.MAX_STORED_BYTES_PER_ACCOUNT,
        defaultTimeLimitSeconds: config.EXECUTION_TIME_LIMIT_SECONDS,
        quotaRetryAfterSeconds: 5,
        acceptTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
      },
      retentionSeconds: config.RETENTION_SECONDS,
      replicaAcks: { replicas: config.REDIS_REPLICA_ACKS, timeoutMs: config.REDIS_REPLICA_ACK_TIMEOUT_MS },
      accountChoreos: { store: { maxCount: config.MAX_CHOREOS_PER_ACCOUNT, maxBytes: config.MAX_CHOREO_BYTES_PER_ACCOUNT } },
      outputReads: OUTPUT_READS,
    },
    keys,
    layout,
    connections,
    catalogue,
    accounts,
    ...(secrets ? { secrets } : {}),
    logger,
    ...(options.atSeam ? { atSeam: options.atSeam } : {}),
  });
  const app = wired.app;

  const { TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile } = config;
  const tls = config.TRUST_PROXY
    ? undefined
    : certFile && keyFile
      ? await forVariable('TLS_CERT_FILE, TLS_KEY_FILE', () => readCertificate({ certFile, keyFile }))
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
      // Open event streams end first: the server waits for its connections.
      await wired.runEvents.close();
      await server.close();
      await wired.close();
      await Promise.all(all.map((connection) => connection.quit().catch(() => connection.disconnect())));
    },
  };
}
