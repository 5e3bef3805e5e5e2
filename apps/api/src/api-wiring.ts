import { createAuthenticator, createCachedAccountStore, type AccountStore } from '@ces/accounts';
import type { Catalogue } from '@ces/catalogue';
import type { HttpMetrics, Logger } from '@ces/observability';
import {
  createCallbackStore,
  createDefinitionStore,
  createAccountReservations,
  createExecutionEvents,
  createExecutionQueues,
  createExecutionStore,
  createShardedExecutionStore,
  followShardRegistry,
  mirrorAllWebhookEvents,
  createPresetStore,
  createWebhookDeliveries,
  createWebhookQueue,
  createWebhookStore,
  createScheduleStore,
  createWorkerRegistry,
  type CallbackStore,
  type ExecutionQueues,
  type ExecutionStore,
  type KeySpace,
  type ShardLayout,
  type PresetStore,
  type SecretCipher,
  createRunHistory,
  createConsoleSessionStore,
  createRunEventLog,
  type ReplicaAcks,
  type StoreCrashSeamHook,
} from '@ces/store';
import type { Redis } from 'ioredis';
import { createApiMetrics, type ApiMetrics } from './api-metrics.ts';
import { createApp, type AppConfig } from './app.ts';
import { createOutputReadGate, type OutputReadGate, type OutputReadGateOptions } from './output-read-gate.ts';
import { createAccountChoreos, type AccountChoreosConfig } from './runs/account-choreos.ts';
import { countEndedRuns, countStartedRuns } from './runs/instrument-runs.ts';
import { createPresetInputs } from './runs/preset-inputs.ts';
import { createSealedErrorMask } from './runs/sealed-error-mask.ts';
import { createSealedOutputsOpener } from './runs/sealed-outputs-opener.ts';
import { createRunLauncher, type RunLauncherConfig } from './runs/run-launcher.ts';
import { withTimeout } from './with-timeout.ts';
import { createRunEventFeed, type RunEventFeed } from './events/run-event-feed.ts';

/** How long a console session lasts when the configuration does not say. */
const DEFAULT_CONSOLE_SESSION_MS = 8 * 60 * 60 * 1000;

/** The API's Redis connections, each named by the work it carries. */
export interface ApiConnections {
  /**
   * Requests: credentials, status polls, lists, terminations, probes (the `request` role: fails
   * at once while Redis is away, and gives up on a command Redis does not answer in time).
   */
  requests: Redis;
  /**
   * Accepting runs: each run's record and its job, sent together so that Redis applies them in that
   * order, and the queue (the `queue` role: never times out, or "retry" would start a run twice).
   */
  accepting: Redis;
  /**
   * Outputs (up to 16 Mi characters each), for `?view=outputs` and for the synchronous runs that
   * wait for their end: replies come in order, and a burst of large ones would otherwise hold every
   * status poll behind it.
   */
  outputs: Redis;
  /** Pub/sub: the ends of runs waited for, credential changes, and the run events watched. */
  events: Redis;
}

export interface ApiWiringConfig {
  app: AppConfig;
  launcher: RunLauncherConfig;
  retentionSeconds: number;
  /** REDIS_REPLICA_ACKS: accepted runs and terminations count once that many replicas hold them. */
  replicaAcks?: ReplicaAcks;
  /** Bounds on each account's own Choreos. */
  accountChoreos: AccountChoreosConfig;
  /** Answers with outputs at once, per process and per account. */
  outputReads: OutputReadGateOptions;
  /** How often a synchronous run polls for its end, in case its message was lost (1 s when omitted). */
  endPollMs?: number;
}

/** Ways for a test to make a store fail or count as Redis would; the service gives none. */
export interface StoreWrappers {
  /** The store that accepts runs (on `accepting`). */
  accepting?: (store: ExecutionStore) => ExecutionStore;
  /** The store synchronous runs wait through, and replays read (on `outputs`). */
  waits?: (store: ExecutionStore) => ExecutionStore;
  /** The store `?view=outputs` reads (on `outputs`). */
  outputReads?: (store: ExecutionStore) => ExecutionStore;
}

/** What the service keeps with SECRETS_KEY; without it, presets answer 503 and callback URLs 404. */
export interface ApiSecrets {
  cipher: SecretCipher;
  /** Signs callback URLs (callbackUrlKey of the secrets key). */
  callbackUrlKey: Buffer;
}

export interface WiredApi {
  app: ReturnType<typeof createApp>;
  /** The execution store of requests (on `requests`). */
  executions: ExecutionStore;
  /** The accounts' presets; undefined without secrets. */
  presets: PresetStore | undefined;
  /** What callback URLs stand for; undefined without secrets. */
  callbacks: CallbackStore | undefined;
  queues: ExecutionQueues;
  metrics: ApiMetrics;
  /** The process's one feed of run events: the console's live pages use it too. */
  runEvents: RunEventFeed;
  /** Stops listening and closes the queue; the connections are the caller's to close. */
  close(): Promise<void>;
}

const same = (store: ExecutionStore) => store;

/**
 * Wires the API app on its connections: stores, queue, events, credentials cache, run launcher,
 * metrics and probes. The service (api-service.ts) and the in-process tests both build it here.
 */
export async function wireApi(deps: {
  config: ApiWiringConfig;
  keys: KeySpace;
  /** Where runs live (shard-layout.ts); `keys` is its control slot. */
  layout: ShardLayout;
  connections: ApiConnections;
  catalogue: Catalogue;
  accounts: AccountStore;
  /** Absent when the service has no SECRETS_KEY. */
  secrets?: ApiSecrets;
  logger: Logger;
  wrap?: StoreWrappers;
  /** Replaces the gate of `?view=outputs` (tests that watch it). */
  outputReadGate?: OutputReadGate;
  /** Wraps the request metrics (tests that watch what is observed). */
  httpMetrics?: (http: HttpMetrics) => HttpMetrics;
  /** Tests only: called at each of the store's crash seams (store-crash-seam.ts); a test holds the process there to kill it. */
  atSeam?: StoreCrashSeamHook;
}): Promise<WiredApi> {
  const { config, keys, layout, connections, logger } = deps;
  const { retentionSeconds } = config;
  const wrap = deps.wrap ?? {};
  // With shards, each store reserves its runs in the control slot (account-reservations.ts).
  const storeOn = (redis: Redis) => {
    const reservations = layout.grows ? createAccountReservations({ redis, layout, retentionSeconds }) : undefined;
    return createShardedExecutionStore(
      layout,
      (shard) =>
        createExecutionStore({
          redis,
          keys: shard.keys,
          retentionSeconds,
          ...(config.replicaAcks ? { replicaAcks: config.replicaAcks } : {}),
          ...(reservations ? { reservations } : {}),
          ...(deps.atSeam ? { atSeam: deps.atSeam } : {}),
        }),
      reservations,
    );
  };

  const executions = storeOn(connections.requests);
  const history = createRunHistory({ redis: connections.requests, keys: layout });
  const definitions = createDefinitionStore({ redis: connections.requests, keys });
  const queues = createExecutionQueues({
    connection: connections.accepting,
    layout,
    // Without a listener BullMQ prints its connection errors to stderr, outside the JSON log.
    onCreated: (queue) => queue.on('error', (error: Error) => logger.warn({ err: error.message }, 'queue error')),
  });
  const events = await createExecutionEvents({
    subscriber: connections.events,
    keys: layout,
    listenFor: ['ends'],
    ...(config.endPollMs !== undefined ? { pollMs: config.endPollMs } : {}),
  });
  // Authentication reads credentials on every request; the store's writes announce each change, so
  // remembering them in process keeps a revocation effective at once.
  const credentials = await createCachedAccountStore({ store: deps.accounts, subscriber: connections.events, keys });
  const workers = createWorkerRegistry({ redis: connections.requests, keys, layout });
  const keysOf = (executionId: string) => layout.shardOf(executionId).keys;
  const runEventLog = createRunEventLog({ redis: connections.requests, keys: keysOf });
  const stopFollowing = followShardRegistry(layout, undefined, (error) => logger.warn({ err: error }, 'could not read the registry of shards'));
  // An API may be the first to learn of a shard another process added: it copies the accounts' webhook event counts there.
  const stopMirroring = layout.onAdded(() => {
    mirrorAllWebhookEvents(connections.requests, layout).catch((error: unknown) =>
      logger.warn({ err: error }, 'could not copy webhook event counts to new shards'),
    );
  });
  const runEvents = createRunEventFeed({ subscriber: connections.events, log: runEventLog, keysOf, logger });
  const schedules = createScheduleStore({ redis: connections.requests, keys, maxPerAccount: config.app.maxSchedulesPerAccount ?? 0 });
  const metrics = createApiMetrics({ queues, executions, accounts: deps.accounts, workers, schedules });
  metrics.redis.instrument(connections.requests, 'api');
  metrics.redis.instrument(connections.accepting, 'api-queue');
  metrics.redis.instrument(connections.events, 'api-events');
  metrics.redis.instrument(connections.outputs, 'api-outputs');
  const outputs = storeOn(connections.outputs);
  const cipher = deps.secrets?.cipher;
  const presets = cipher
    ? createPresetStore({ redis: connections.requests, keys, cipher, maxPresetsPerAccount: config.app.maxPresetsPerAccount ?? 0 })
    : undefined;
  const webhooks = cipher
    ? {
        store: createWebhookStore({
          redis: connections.requests,
          keys,
          layout,
          cipher,
          maxWebhooksPerAccount: config.app.maxWebhooksPerAccount ?? 0,
          ...(deps.atSeam ? { atSeam: deps.atSeam } : {}),
        }),
        deliveries: createWebhookDeliveries({ redis: connections.requests, keys, retentionSeconds }),
        queue: createWebhookQueue({ connection: connections.accepting, keys }),
      }
    : undefined;
  webhooks?.queue.on('error', (error: Error) => logger.warn({ err: error.message }, 'webhook queue error'));
  const callbacks = deps.secrets ? createCallbackStore({ redis: connections.requests, keys, urlKey: deps.secrets.callbackUrlKey }) : undefined;
  const launcher = countStartedRuns(
    createRunLauncher({
      logger,
      accepting: (wrap.accepting ?? same)(storeOn(connections.accepting)),
      waits: (wrap.waits ?? same)(outputs),
      definitions,
      queues,
      layout,
      events,
      presetInputs: createPresetInputs({ ...(presets ? { presets } : {}), ...(cipher ? { cipher } : {}) }),
      ...(cipher ? { cipher } : {}),
      config: config.launcher,
    }),
    metrics.executions,
  );

  const app = createApp({
    config: config.app,
    shardsAt: (time) => layout.shardsAt(time),
    choreos: createAccountChoreos({ redis: connections.requests, keys, catalogue: deps.catalogue, config: config.accountChoreos }),
    schedules,
    ...(presets ? { presets } : {}),
    ...(webhooks ? { webhooks } : {}),
    ...(callbacks ? { callbacks } : {}),
    maskSealedInputs: createSealedErrorMask({ executions, ...(cipher ? { cipher } : {}) }),
    openSealedOutputs: createSealedOutputsOpener(cipher),
    executions: countEndedRuns(executions, metrics.executions),
    history,
    runEvents: { log: runEventLog, feed: runEvents },
    outputReads: {
      executions: (wrap.outputReads ?? same)(outputs),
      gate: deps.outputReadGate ?? createOutputReadGate(config.outputReads),
    },
    queues,
    launcher,
    authenticator: createAuthenticator({ accounts: credentials }),
    probe: {
      redisAnswers: async () => {
        try {
          return (await withTimeout(connections.requests.ping(), 1_000)) === 'PONG';
        } catch {
          return false;
        }
      },
      liveWorkers: () => workers.count(),
    },
    isRedisAvailable: () => [connections.requests, connections.accepting, connections.outputs].every((redis) => redis.status === 'ready'),
    logger,
    metrics: { registry: metrics.registry, http: deps.httpMetrics ? deps.httpMetrics(metrics.http) : metrics.http },
    ops: { workers, queues, executions, history },
    console: {
      sessions: {
        store: createConsoleSessionStore({ redis: connections.requests, keys }),
        credentials,
        lifetimeMs: config.app.consoleSessionMs ?? DEFAULT_CONSOLE_SESSION_MS,
      },
      workers,
      ...(cipher ? { cipher } : {}),
    },
  });

  return {
    app,
    executions,
    presets,
    callbacks,
    queues,
    metrics,
    runEvents,
    async close() {
      stopFollowing();
      stopMirroring();
      await runEvents.close();
      await credentials.close();
      await events.close();
      await queues.close();
      await webhooks?.queue.close();
    },
  };
}
