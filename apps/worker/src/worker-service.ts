import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { createStepLibrary } from '@ces/choreos';
import type { Logger } from '@ces/observability';
import {
  createDefinitionStore,
  createExecutionEvents,
  createExecutionQueue,
  createExecutionStore,
  createKeySpace,
  createRedisConnection,
  createWorkerRegistry,
  EXECUTION_QUEUE,
  type ExecutionJobData,
} from '@ces/store';
import { WaitingError, Worker } from 'bullmq';
import type { WorkerConfig } from './config.ts';
import { createExecutionProcessor } from './execution-processor.ts';
import { HEARTBEAT_TTL_MS, startHeartbeat } from './heartbeat.ts';
import { resolveHostAddress } from './host-address.ts';
import { createReconciler } from './reconciler.ts';

export const WORKER_VERSION = '0.1.0';

/**
 * Lock and stall settings. A worker renews its job locks every LOCK_DURATION/2; when it dies, its
 * locks lapse within LOCK_DURATION and the next stall check (every STALLED_INTERVAL) on any live
 * worker puts the job back, so a crashed run is resumed within about ten seconds — not the thirty
 * or more of BullMQ's defaults. Steps are asynchronous, so the event loop never blocks long enough
 * to miss a renewal. A job that stalls MAX_STALLED times in a row (a Choreo that kills its worker)
 * fails instead of taking the fleet down one worker at a time.
 */
export const LOCK_DURATION_MS = 5_000;
export const STALLED_INTERVAL_MS = 5_000;
export const MAX_STALLED_COUNT = 5;

export interface WorkerService {
  id: string;
  host: string;
  /** Graceful stop: no new work, current steps finish, unfinished runs go back to the queue. */
  close(): Promise<void>;
}

export async function startWorkerService(config: WorkerConfig, logger: Logger): Promise<WorkerService> {
  const keys = createKeySpace(config.REDIS_PREFIX);
  const host = resolveHostAddress(config.WORKER_HOST);
  const workerId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const log = logger.child({ workerId, host });

  const redis = createRedisConnection(config.REDIS_URL, 'durable', `worker-${workerId}`);
  const queueConnection = createRedisConnection(config.REDIS_URL, 'durable', `worker-${workerId}-queue`);
  const subscriber = createRedisConnection(config.REDIS_URL, 'subscriber', `worker-${workerId}-events`);
  for (const connection of [redis, queueConnection, subscriber]) {
    connection.on('error', (error: Error) => log.warn({ err: error.message }, 'redis connection error'));
  }

  const executions = createExecutionStore({ redis, keys, retentionSeconds: config.RETENTION_SECONDS });
  const definitions = createDefinitionStore({ redis, keys });
  const registry = createWorkerRegistry({ redis, keys, ttlMs: HEARTBEAT_TTL_MS });
  const queue = createExecutionQueue({ connection: queueConnection, keys });
  const events = await createExecutionEvents({ subscriber, keys });
  const steps = createStepLibrary({
    http: {
      allowPrivateNetworks: config.HTTP_ALLOW_PRIVATE_NETWORKS,
      timeoutMs: config.HTTP_STEP_TIMEOUT_MS,
      maxResponseBytes: config.HTTP_MAX_RESPONSE_BYTES,
    },
  });
  const processor = createExecutionProcessor({ executions, definitions, steps, host, workerId, logger: log });
  const unsubscribeCancel = events.onCancelRequested((id) => processor.cancel(id));

  let processed = 0;
  let failed = 0;
  const started = Date.now();

  const worker = new Worker<ExecutionJobData>(
    EXECUTION_QUEUE,
    async (job, token) => {
      const result = await processor.process({
        executionId: job.data.executionId,
        handBack: async () => {
          await job.moveToWait(token);
        },
      });
      if (result === 'handed-back') throw new WaitingError();
      processed += 1;
    },
    {
      connection: createRedisConnection(config.REDIS_URL, 'durable', `worker-${workerId}-bullmq`),
      prefix: keys.prefix,
      concurrency: config.WORKER_CONCURRENCY,
      lockDuration: LOCK_DURATION_MS,
      stalledInterval: STALLED_INTERVAL_MS,
      maxStalledCount: MAX_STALLED_COUNT,
      autorun: false,
    },
  );
  worker.on('error', (error) => log.warn({ err: error.message }, 'worker error'));
  worker.on('failed', (job, error) => {
    failed += 1;
    if (!job) return;
    const attemptsLeft = (job.opts.attempts ?? 1) - job.attemptsMade;
    log.error({ executionId: job.data.executionId, err: error.message, attemptsLeft }, 'execution job failed');
    if (attemptsLeft <= 0) {
      // Out of retries: the run cannot go on, so it must not stay RUNNING.
      executions
        .finish(job.data.executionId, { status: 'ERROR', error: 'The execution could not be run: the worker kept failing.' })
        .catch((finishError: unknown) => log.error({ err: finishError }, 'could not record the failed execution'));
    }
  });

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
    }),
    onError: (error) => log.warn({ err: error }, 'heartbeat failed'),
  });
  const reconciler = createReconciler({ redis, keys, executions, queue, workerId, logger: log });

  worker.run().catch((error: unknown) => log.error({ err: error }, 'worker stopped with an error'));
  await worker.waitUntilReady();
  await heartbeat.beat();
  reconciler.start();
  log.info({ concurrency: config.WORKER_CONCURRENCY }, 'worker ready');

  let closing: Promise<void> | undefined;
  return {
    id: workerId,
    host,
    close() {
      closing ??= (async () => {
        log.info({ active: processor.activeIds().length }, 'worker stopping');
        reconciler.stop();
        processor.beginShutdown();
        // Runs stop at their next step boundary; past most of the grace period even waits are cut short.
        const interrupt = setTimeout(() => processor.interruptAll(), Math.max(0, config.WORKER_SHUTDOWN_GRACE_SECONDS * 1000 - 2_000));
        interrupt.unref();
        await worker.close();
        clearTimeout(interrupt);
        unsubscribeCancel();
        await heartbeat.stop();
        await events.close();
        await queue.close();
        await Promise.all([redis, queueConnection, subscriber].map((connection) => connection.quit().catch(() => connection.disconnect())));
        log.info('worker stopped');
      })();
      return closing;
    },
  };
}
