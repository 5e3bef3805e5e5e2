import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { createSandbox } from '@ces/sandbox';
import { createHttpPoster, createStepLibrary } from '@ces/steps';
import { loadCatalogue } from '@ces/catalogue';
import type { AccountState } from '@ces/language';
import { forVariable } from '@ces/config';
import type { Logger } from '@ces/observability';
import {
  createAccountChoreoStore,
  createDefinitionStore,
  createAccountReservations,
  createExecutionEvents,
  createExecutionQueues,
  createExecutionStore,
  createKeySpace,
  createShardedExecutionStore,
  followShardRegistry,
  mirrorAllWebhookEvents,
  openShardLayout,
  type ExecutionStore,
  type KeySpace,
  type Shard,
  createRedisConnection,
  redisTarget,
  callbackCaptureUrl,
  runCallbackUrl,
  callbackUrlKey,
  createCallbackStore,
  createSecretCipher,
  createTokenStore,
  createHistorySweep,
  createReconcilerState,
  createScheduleStore,
  createPresetStore,
  createWorkerRegistry,
  enqueueExecution,
  promoteJobs,
  EXECUTION_JOB_BACKOFF,
  EXECUTION_JOB_RETENTION,
  EXECUTION_QUEUE,
  type ExecutionEndListener,
  type ExecutionJobData,
  createWebhookDeliveries,
  createWebhookQueue,
  createWebhookStore,
} from '@ces/store';
import { DelayedError, WaitingError, Worker } from 'bullmq';
import type { WorkerConfig } from './config.ts';
import { createExecutionProcessor } from './execution-processor.ts';
import type { ProcessResult } from './processing-context.ts';
import { createJobLockWatch } from './job-lock-watch.ts';
import { startHealthServer } from './health-server.ts';
import { startHeartbeat } from './heartbeat.ts';
import { resolveHostAddress } from './host-address.ts';
import { createWorkerMetrics } from './worker-metrics.ts';
import { accountChoreoLookup, catalogueLookup, firstOfLookups } from './child-choreos.ts';
import { createChildRunsFactory } from './child-runs.ts';
import { createScheduleFirer } from './schedule-firer.ts';
import { createScheduleRuns } from './schedule-runs.ts';
import { endFailedExecution } from './end-failed-execution.ts';
import type { CrashSeamHook } from './crash-seam.ts';
import { createHistorySweeper, HISTORY_SWEEP_INTERVAL_MS } from './history-sweeper.ts';
import { createReconciler } from './reconciler.ts';
import { createWebhookDispatcher } from './webhook-dispatcher.ts';
import { createWebhookSender } from './webhook-sender.ts';
import { startWebhookWorker } from './webhook-worker.ts';

export const WORKER_VERSION = '0.1.0';

/**
 * Lock and stall settings. A worker renews its job locks every LOCK_DURATION/2; when it dies, its
 * locks lapse within LOCK_DURATION and the stall check (once per STALLED_INTERVAL across the fleet;
 * it marks the active jobs on one pass and moves those still without a lock on the next) puts the
 * job back, so a crashed run is resumed within 5 to 15 seconds — not the minute or more of
 * BullMQ's defaults (30 s locks, 30 s checks). Shorter would cost every worker more Redis calls
 * and risk false stalls on a busy host. Steps are asynchronous, and the ones whose work grows with
 * tenant input (queries, regular expressions, conversions) run in sandbox processes, so the event
 * loop does not block long enough to miss a renewal. A job that stalls MAX_STALLED times in a row (a Choreo that kills its worker)
 * fails instead of taking the fleet down one worker at a time.
 */
export const LOCK_DURATION_MS = 5_000;
export const STALLED_INTERVAL_MS = 5_000;
export const MAX_STALLED_COUNT = 5;

export interface WorkerService {
  id: string;
  host: string;
  /** Port of the health and metrics server; undefined when WORKER_HEALTH_PORT is unset. */
  healthPort?: number;
  /** Graceful stop: no new work, current steps finish, unfinished runs go back to the queue. */
  close(): Promise<void>;
}

export async function startWorkerService(
  config: WorkerConfig,
  logger: Logger,
  options: {
    /**
     * The worker cannot go on: BullMQ's loop that takes jobs has stopped with an error. The process
     * should end, so that its supervisor starts a new one, rather than stay up taking nothing.
     */
    onFatal?: (error: unknown) => void;
    /** Tests only: called at each crash seam a run passes; a test holds the worker there to kill it. */
    atSeam?: CrashSeamHook;
  } = {},
): Promise<WorkerService> {
  // What belongs to accounts: shard 0's slot (shard-layout.ts).
  const keys = createKeySpace(config.REDIS_PREFIX);
  const host = resolveHostAddress(config.WORKER_HOST);
  const workerId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const log = logger.child({ workerId, host });
  if (config.WORKER_SHUTDOWN_GRACE_SECONDS * 1000 < config.HTTP_STEP_TIMEOUT_MS + 5_000) {
    log.warn(
      { graceSeconds: config.WORKER_SHUTDOWN_GRACE_SECONDS, httpStepTimeoutMs: config.HTTP_STEP_TIMEOUT_MS },
      'WORKER_SHUTDOWN_GRACE_SECONDS is not longer than HTTP_STEP_TIMEOUT_MS: an HTTP step started just before a stop may be cut off and run again',
    );
  }

  // One connection carries the records, the queue and BullMQ's own calls, in the order they are
  // made: an instant run's end and its job's completion then go out in one write and come back in
  // one read, and a requeue always follows the completion it depends on. BullMQ adds its blocking
  // connection itself.
  const redis = createRedisConnection(redisTarget(config), 'durable', `worker-${workerId}`);
  const subscriber = createRedisConnection(redisTarget(config), 'subscriber', `worker-${workerId}-events`);
  for (const connection of [redis, subscriber]) {
    connection.on('error', (error: Error) => log.warn({ err: error.message }, 'redis connection error'));
  }

  // The secrets key opens the inputs runs took from presets, and the accounts' stored tokens.
  const cipher = config.SECRETS_KEY ? createSecretCipher({ current: config.SECRETS_KEY, previous: config.SECRETS_KEY_PREVIOUS }) : undefined;
  if (!cipher)
    log.warn('SECRETS_KEY is not set: runs that took inputs from a preset, runs of Choreos with secret outputs, and TokenStorage steps fail on this worker');
  const tokens = cipher ? createTokenStore({ redis, keys, cipher }) : undefined;
  const callbacks = config.SECRETS_KEY ? createCallbackStore({ redis, keys, urlKey: callbackUrlKey(config.SECRETS_KEY) }) : undefined;
  // Each run gets its own account's state, and no way to name another's.
  const accountState =
    tokens && callbacks
      ? (account: string, runBaseUrl: string | undefined): AccountState => {
          // Under the run's public address, as its API decided it at accept; else this worker's.
          const base = () => {
            const found = runBaseUrl ?? config.PUBLIC_BASE_URL;
            if (found === undefined) throw new Error('this run has no public address for callback URLs: set PUBLIC_BASE_URL');
            return found;
          };
          return {
            account,
            tokens: tokens.forAccount(account),
            callbacks: {
              async register(options) {
                const { id, token } = await callbacks.forAccount(account).register(options);
                return { id, url: callbackCaptureUrl(base(), token) };
              },
              requests: (id) => callbacks.forAccount(account).requests(id),
              url: (id) => callbackCaptureUrl(base(), callbacks.forAccount(account).tokenOf(id)),
            },
          };
        }
      : undefined;
  // The worker takes the runs of every shard there is, QUEUE_SHARDS of them or more.
  const layout = await openShardLayout(redis, keys, config.QUEUE_SHARDS);
  // Shards this process may have just added get every account's webhook event counts.
  await mirrorAllWebhookEvents(redis, layout);
  const reservations = layout.grows ? createAccountReservations({ redis, layout, retentionSeconds: config.RETENTION_SECONDS }) : undefined;
  // Each shard's own store: the reconciler walks one shard's runs with it.
  const shardStores = new Map<number, ExecutionStore>();
  const storeFor = (shard: Shard) => {
    let store = shardStores.get(shard.index);
    if (store === undefined) {
      store = createExecutionStore({
        redis,
        keys: shard.keys,
        retentionSeconds: config.RETENTION_SECONDS,
        stepHistoryBounds: { first: config.STEP_HISTORY_FIRST, last: config.STEP_HISTORY_LAST },
        replicaAcks: {
          replicas: config.REDIS_REPLICA_ACKS,
          timeoutMs: config.REDIS_REPLICA_ACK_TIMEOUT_MS,
          untilAcknowledged: (shortfall) => log.warn({ err: shortfall.message }, 'waiting for Redis replicas to acknowledge a write'),
        },
        ...(cipher ? { cipher } : {}),
        ...(reservations ? { reservations } : {}),
        ...(options.atSeam ? { atSeam: options.atSeam } : {}),
      });
      shardStores.set(shard.index, store);
    }
    return store;
  };
  const executions = createShardedExecutionStore(layout, storeFor, reservations);
  const definitions = createDefinitionStore({ redis, keys });
  const registry = createWorkerRegistry({ redis, keys, layout });
  const queues = createExecutionQueues({
    connection: redis,
    layout,
    // Without a listener, BullMQ prints a queue's connection errors to stderr, outside the JSON log.
    onCreated: (queue) => queue.on('error', (error) => log.warn({ err: error.message }, 'queue error')),
  });
  // Whoever ends a child makes its parent's delayed job due, when the end made the parent due.
  const makeDue = async (executionIds: readonly string[]) => {
    await promoteJobs(queues, executionIds);
  };
  const events = await createExecutionEvents({ subscriber, keys: layout, listenFor: ['terminations', 'child-ends'] });
  const sandbox = createSandbox({ idleProcesses: config.WORKER_CONCURRENCY });
  const steps = createStepLibrary({
    sandbox,
    http: {
      allowPrivateNetworks: config.HTTP_ALLOW_PRIVATE_NETWORKS,
      timeoutMs: config.HTTP_STEP_TIMEOUT_MS,
      maxResponseBytes: config.HTTP_MAX_RESPONSE_BYTES,
    },
  });
  const catalogue = await forVariable('CHOREOS_DIR', () => loadCatalogue(config.CHOREOS_DIR, steps));
  // The Library first: an account's own Choreos never stand in for a shipped one.
  const choreoLookup = firstOfLookups([catalogueLookup(catalogue), accountChoreoLookup(createAccountChoreoStore({ redis, keys }), steps)]);
  const childRunsFor = createChildRunsFactory({
    executions,
    definitions,
    queues,
    events,
    lookup: choreoLookup,
    maxStoredBytesPerAccount: config.MAX_STORED_BYTES_PER_ACCOUNT,
    ...(cipher ? { cipher } : {}),
  });
  const metrics = createWorkerMetrics({ concurrency: config.WORKER_CONCURRENCY, activeCount: () => processor.activeIds().length });
  metrics.redis.instrument(redis, 'worker');
  metrics.redis.instrument(subscriber, 'worker-events');
  // Every end a worker records is counted, whoever records it: the processor or a failed job.
  const onExecutionEnd: ExecutionEndListener = (event) => metrics.executions.ended(event);
  const lockWatch = createJobLockWatch({ lockDurationMs: LOCK_DURATION_MS });
  const processor = createExecutionProcessor({
    executions,
    definitions,
    steps,
    sandbox,
    host,
    workerId,
    maxExecutingPerAccount: config.MAX_EXECUTING_PER_ACCOUNT,
    suspension: {
      minimumMs: config.DURABLE_WAIT_THRESHOLD_MS,
      // For runs their API recorded no public address for; the others' are their own (public-urls.ts).
      callbackUrl: (token) => (config.PUBLIC_BASE_URL !== undefined ? runCallbackUrl(config.PUBLIC_BASE_URL, token) : undefined),
    },
    holdsJobLock: (executionId) => lockWatch.holds(executionId),
    ...(accountState ? { accountState } : {}),
    logger: log,
    onDeferred: () => metrics.takes.deferred(),
    ...(options.atSeam ? { atSeam: options.atSeam } : {}),
    onStepEnd: (event) => metrics.executions.step(event),
    onExecutionEnd,
    childRunsFor,
    makeDue,
    ...(cipher ? { cipher } : {}),
  });
  // Ready means taking work: started, not stopping, connected, and the BullMQ loop running.
  let takingWork = false;
  let stopping = false;
  const healthPort = config.WORKER_HEALTH_PORT;
  const health =
    healthPort === undefined
      ? undefined
      : await forVariable('WORKER_HEALTH_PORT', () =>
          startHealthServer({
            port: healthPort,
            registry: metrics.registry,
            notReadyReasons: () => {
              if (!takingWork) return [stopping ? 'stopping' : 'starting'];
              const reasons: string[] = [];
              if (redis.status !== 'ready') reasons.push('Redis is not connected');
              if (workers.some((shardWorker) => !shardWorker.isRunning() || shardWorker.isPaused())) reasons.push('not taking work');
              return reasons;
            },
            onError: (error) => log.error({ err: error }, 'health server error'),
          }),
        );
  if (health) log.info({ port: health.port }, 'worker health server listening');
  const unsubscribeTerminations = events.onTerminationRequested((id) => processor.terminationRequested(id));

  let processed = 0;
  let failed = 0;
  const started = Date.now();

  // One BullMQ worker per shard's queue, sharing the processor: WORKER_CONCURRENCY is spread over
  // them, each taking at least one run at a time.
  // WORKER_CONCURRENCY divided between the shards' queues, each taking at least one run at a time;
  // divided again as shards are added.
  const concurrencyPerShard = () => Math.max(1, Math.floor(config.WORKER_CONCURRENCY / layout.shards.length));
  const startShardWorker = (shard: Shard) => {
    const queue = queues.ofShard(shard);
    const shardWorker = new Worker<ExecutionJobData>(
      EXECUTION_QUEUE,
      async (job, token) => {
        const { executionId } = job.data;
        // The retry delay is the workers' rather than stored in every job (EXECUTION_JOB_OPTIONS):
        // BullMQ reads it from this very job object when the processor fails.
        job.opts.backoff ??= EXECUTION_JOB_BACKOFF;
        // BullMQ set the job's lock when it moved the job to active; the job id is the execution id.
        lockWatch.taken(executionId, token ?? '', job.processedOn ?? Date.now());
        let result: ProcessResult;
        try {
          result = await processor.process({
            executionId,
            ...(job.data.accepted ? { accepted: job.data.accepted } : {}),
            handBack: async () => {
              await job.moveToWait(token);
            },
            requeue: async () => {
              await enqueueExecution(queue, executionId);
            },
            defer: async (untilMs) => {
              await job.moveToDelayed(untilMs, token);
            },
            undefer: async () => {
              await job.promote();
            },
          });
        } finally {
          lockWatch.released(executionId, token ?? '');
        }
        // Handed back, the job is in the wait list already; superseded, it belongs to another take;
        // deferred or suspended, it is among the delayed jobs. BullMQ must leave it alone, which is what
        // WaitingError and DelayedError ask for.
        if (result === 'handed-back' || result === 'superseded') throw new WaitingError();
        if (result === 'deferred' || result === 'suspended') throw new DelayedError();
        processed += 1;
      },
      {
        connection: redis,
        prefix: shard.keys.prefix,
        concurrency: concurrencyPerShard(),
        ...EXECUTION_JOB_RETENTION,
        lockDuration: LOCK_DURATION_MS,
        stalledInterval: STALLED_INTERVAL_MS,
        maxStalledCount: MAX_STALLED_COUNT,
        autorun: false,
      },
    );
    shardWorker.on('error', (error) => log.warn({ err: error.message }, 'worker error'));
    shardWorker.on('locksRenewed', ({ jobIds }) => lockWatch.renewed(jobIds));
    shardWorker.on('lockRenewalFailed', (jobIds) => lockWatch.renewalFailed(jobIds));
    shardWorker.on('failed', (job, error) => {
      failed += 1;
      if (!job) return;
      // finishedOn is set only when the job failed for good: out of attempts, or failed without a
      // retry (BullMQ fails a job that stalled more than MAX_STALLED_COUNT times that way).
      const final = job.finishedOn !== undefined;
      log.error({ executionId: job.data.executionId, err: error.message, attemptsMade: job.attemptsMade, final }, 'execution job failed');
      if (final) {
        // Out of retries: the run cannot go on, so it must not stay RUNNING.
        executions
          .get(job.data.executionId)
          .then((record) => record && endFailedExecution({ executions, onExecutionEnd, makeDue }, record))
          .catch((endError: unknown) => log.error({ err: endError }, 'could not record the failed execution'));
      }
    });
    return shardWorker;
  };
  const workers: Worker<ExecutionJobData>[] = [];

  const heartbeat = startHeartbeat({
    registry,
    snapshot: () => ({
      id: workerId,
      host,
      pid: process.pid,
      concurrency: config.WORKER_CONCURRENCY,
      active: processor.activeIds(),
      processed,
      failed,
      version: WORKER_VERSION,
      started,
      takesPublished: true,
    }),
    onError: (error) => log.warn({ err: error }, 'heartbeat failed'),
  });
  const scheduleFirer = createScheduleFirer({
    schedules: createScheduleStore({ redis, keys }),
    startTick: createScheduleRuns({
      executions,
      definitions,
      queues,
      shardsAt: (time) => layout.shardsAt(time),
      lookup: choreoLookup,
      maxRunningPerAccount: config.MAX_RUNNING_PER_ACCOUNT,
      maxStoredBytesPerAccount: config.MAX_STORED_BYTES_PER_ACCOUNT,
      defaultTimeLimitSeconds: config.EXECUTION_TIME_LIMIT_SECONDS,
      ...(cipher ? { cipher, presets: createPresetStore({ redis, keys, cipher, maxPresetsPerAccount: 0 }) } : {}),
    }),
    logger: log,
    metrics: metrics.schedules,
    leaseMs: config.SCHEDULE_LEASE_MS,
    pollMs: config.SCHEDULE_POLL_MS,
    batch: config.SCHEDULE_BATCH,
    lookaheadMs: config.SCHEDULE_LOOKAHEAD_MS,
    mostHeld: config.SCHEDULE_MOST_HELD,
    // A burst of ticks (10,000 schedules of one minute fall due at once) starts its runs first and
    // runs them after: taking and running the first ones would slow starting the last ones.
    onBurst: (bursting) => {
      if (stopping) return;
      log.debug({ bursting }, bursting ? 'burst of schedule ticks: runs are taken once it is started' : 'burst of schedule ticks started');
      for (const shardWorker of workers) {
        const change = bursting ? shardWorker.pause(true) : Promise.resolve(shardWorker.resume());
        change.catch((error: unknown) => log.warn({ err: error }, 'could not pause or resume taking runs'));
      }
    },
  });
  // Webhooks need the key their secrets are sealed with; without it no account can have any.
  const webhookQueue = cipher ? createWebhookQueue({ connection: redis, keys }) : undefined;
  const webhooks = cipher ? createWebhookStore({ redis, keys, cipher, maxWebhooksPerAccount: 0 }) : undefined;
  const deliveriesFrom = (outbox: KeySpace) =>
    createWebhookDeliveries({
      redis,
      keys,
      outbox,
      retentionSeconds: Math.max(config.RETENTION_SECONDS, config.WEBHOOK_RETRY_MAX_SECONDS) + 86_400,
    });
  // The deliveries live in the control slot; each shard's runs queue their events in its own outbox.
  const deliveries = deliveriesFrom(keys);
  const webhookSender = webhooks
    ? createWebhookSender({
        webhooks,
        deliveries,
        post: createHttpPoster({
          allowPrivateNetworks: config.HTTP_ALLOW_PRIVATE_NETWORKS,
          timeoutMs: config.HTTP_STEP_TIMEOUT_MS,
          maxResponseBytes: config.HTTP_MAX_RESPONSE_BYTES,
        }),
        retry: { initialMs: config.WEBHOOK_RETRY_INITIAL_MS, maxSeconds: config.WEBHOOK_RETRY_MAX_SECONDS },
        perWebhook: config.WEBHOOK_CONCURRENCY_PER_WEBHOOK,
        logger: log,
        onAttempt: (outcome) => metrics.webhooks.attempted(outcome),
      })
    : undefined;
  const webhookWorker = webhookSender
    ? startWebhookWorker({
        connection: redis,
        keys,
        concurrency: config.WEBHOOK_CONCURRENCY,
        lockDurationMs: LOCK_DURATION_MS,
        stalledIntervalMs: STALLED_INTERVAL_MS,
        sender: webhookSender,
        deliveries,
        logger: log,
      })
    : undefined;
  // Per shard: its queue's BullMQ worker; its running runs, its history indexes and its webhook
  // outbox are in its own slot, each walked under a lock of its own.
  const reconcilers: ReturnType<typeof createReconciler>[] = [];
  const historySweepers: ReturnType<typeof createHistorySweeper>[] = [];
  const webhookDispatchers: ReturnType<typeof createWebhookDispatcher>[] = [];
  const addShard = (shard: Shard) => {
    workers.push(startShardWorker(shard));
    reconcilers.push(
      createReconciler({
        redis,
        state: createReconcilerState({ redis, keys: shard.keys }),
        executions: storeFor(shard),
        queue: queues.ofShard(shard),
        workerId,
        logger: log,
        onExecutionEnd,
        makeDue,
        ...(reservations ? { reserveEarly: (page) => reservations.reserveEarly(shard, page) } : {}),
      }),
    );
    historySweepers.push(
      createHistorySweeper({
        sweep: createHistorySweep({ redis, keys: shard.keys, lockMs: HISTORY_SWEEP_INTERVAL_MS - 5_000 }),
        workerId,
        logger: log,
      }),
    );
    if (webhooks && webhookQueue && webhookSender)
      webhookDispatchers.push(
        createWebhookDispatcher({
          webhooks,
          deliveries: shard.index === 0 ? deliveries : deliveriesFrom(shard.keys),
          queue: webhookQueue,
          sender: webhookSender,
          logger: log,
          leaseMs: 30_000,
          pollMs: config.WEBHOOK_DISPATCH_POLL_MS,
          batch: 200,
        }),
      );
  };
  for (const shard of layout.shards) addShard(shard);
  // A shard the deployment adds while this worker runs is taken from as soon as it is learnt of.
  const stopGrowing = layout.onAdded((added) => {
    if (stopping) return;
    for (const shardWorker of workers) shardWorker.concurrency = concurrencyPerShard();
    // A worker may be the first to learn of a shard: it copies the accounts' webhook event counts there.
    mirrorAllWebhookEvents(redis, layout).catch((error: unknown) => log.warn({ err: error }, 'could not copy webhook event counts to new shards'));
    for (const shard of added) {
      const first = reconcilers.length;
      addShard(shard);
      workers
        .at(-1)
        ?.run()
        .catch((error: unknown) => {
          log.error({ err: error }, 'worker stopped with an error');
          options.onFatal?.(error);
        });
      reconcilers[first]?.start();
      historySweepers[first]?.start();
      webhookDispatchers.at(-1)?.start();
      log.info({ shard: shard.index, prefix: shard.keys.prefix }, 'taking the runs of a new shard');
    }
  });
  const stopFollowing = followShardRegistry(layout, undefined, (error) => log.warn({ err: error }, 'could not read the registry of shards'));

  for (const shardWorker of workers)
    shardWorker.run().catch((error: unknown) => {
      log.error({ err: error }, 'worker stopped with an error');
      options.onFatal?.(error);
    });
  await Promise.all(workers.map((shardWorker) => shardWorker.waitUntilReady()));
  await heartbeat.beat();
  for (const reconciler of reconcilers) reconciler.start();
  for (const historySweeper of historySweepers) historySweeper.start();
  scheduleFirer.start();
  for (const dispatcher of webhookDispatchers) dispatcher.start();
  await webhookWorker?.started();
  log.info({ concurrency: config.WORKER_CONCURRENCY }, 'worker ready');
  takingWork = true;

  let closing: Promise<void> | undefined;
  return {
    id: workerId,
    host,
    ...(health ? { healthPort: health.port } : {}),
    close() {
      closing ??= (async () => {
        takingWork = false;
        stopping = true;
        log.info({ active: processor.activeIds().length }, 'worker stopping');
        stopFollowing();
        stopGrowing();
        for (const reconciler of reconcilers) reconciler.stop();
        for (const historySweeper of historySweepers) historySweeper.stop();
        const firerStopped = scheduleFirer.stop();
        const dispatchersStopped = Promise.all(webhookDispatchers.map((dispatcher) => dispatcher.stop()));
        // Deliveries in flight end (within their timeout) before the connection they record on closes.
        const webhooksStopped = webhookWorker?.close();
        processor.beginShutdown();
        // Runs stop at their next step boundary; past most of the grace period even waits are cut short.
        const interrupt = setTimeout(() => processor.interruptAll(), Math.max(0, config.WORKER_SHUTDOWN_GRACE_SECONDS * 1000 - 2_000));
        interrupt.unref();
        await Promise.all(workers.map((shardWorker) => shardWorker.close()));
        clearTimeout(interrupt);
        await processor.endsSettled();
        await firerStopped;
        await dispatchersStopped;
        await webhooksStopped;
        await webhookQueue?.close();
        unsubscribeTerminations();
        await heartbeat.stop();
        await events.close();
        await queues.close();
        await Promise.all([redis, subscriber].map((connection) => connection.quit().catch(() => connection.disconnect())));
        // Last: liveness answers for as long as the process drains.
        await health?.close();
        log.info('worker stopped');
      })();
      return closing;
    },
  };
}
