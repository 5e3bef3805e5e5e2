import type { Logger } from '@ces/observability';
import { type KeySpace, WEBHOOK_QUEUE, type WebhookDeliveries, type WebhookJobData } from '@ces/store';
import { DelayedError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { WebhookSender } from './webhook-sender.ts';

export interface WebhookWorker {
  /** Resolves once the worker takes jobs. */
  started(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Deliveries' BullMQ loop, apart from the runs' queue: an endpoint that is slow or down holds
 * only delivery slots. Between attempts a delivery's job waits among the delayed jobs, so a
 * worker killed or restarted then loses nothing: the job is in Redis, taken when due by any
 * worker. A worker that dies during an attempt leaves its job to the stall check, which hands it
 * to another; the delivery's record, not the job, says whether it was delivered.
 */
export function startWebhookWorker(deps: {
  connection: Redis;
  keys: KeySpace;
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  sender: WebhookSender;
  /** Where a delivery whose job failed for good is recorded dead. */
  deliveries: WebhookDeliveries;
  logger: Logger;
}): WebhookWorker {
  const worker = new Worker<WebhookJobData>(
    WEBHOOK_QUEUE,
    async (job, token) => {
      const outcome = await deps.sender.send(job.data.deliveryId, job.data.round);
      if (outcome.kind === 'done') return;
      await job.moveToDelayed(outcome.at, token);
      throw new DelayedError();
    },
    {
      connection: deps.connection,
      prefix: deps.keys.prefix,
      concurrency: deps.concurrency,
      lockDuration: deps.lockDurationMs,
      stalledInterval: deps.stalledIntervalMs,
      // A job stalls when its worker dies mid-attempt; its delivery is worth more tries than a run's.
      maxStalledCount: 100,
      autorun: false,
    },
  );
  worker.on('error', (error) => deps.logger.warn({ err: error.message }, 'webhook worker error'));
  worker.on('failed', (job, error) => {
    if (!job) return;
    deps.logger.warn({ deliveryId: job.data.deliveryId, err: error.message, attemptsMade: job.attemptsMade }, 'webhook delivery job failed');
    // Out of the job's own retries (Redis failing it again and again): the delivery must not stay
    // pending with nothing left to send it.
    if (job.finishedOn === undefined) return;
    const { deliveryId, round } = job.data;
    deps.deliveries
      .get(deliveryId)
      .then(
        (delivery) =>
          delivery && deps.deliveries.recordAttempt(delivery, { round, now: Date.now(), status: 0, error: `not sent: ${error.message}`, outcome: 'dead' }),
      )
      .catch((recordError: unknown) => deps.logger.error({ err: recordError, deliveryId }, 'could not record the failed delivery'));
  });
  worker.run().catch((error: unknown) => deps.logger.error({ err: error }, 'webhook worker stopped with an error'));
  return {
    started: () => worker.waitUntilReady().then(() => undefined),
    close: () => worker.close(),
  };
}
