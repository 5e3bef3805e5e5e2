import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { type KeySpace, WEBHOOK_QUEUE } from './keys.ts';

/** What a delivery's job carries: its id and the round it sends; the delivery's record says the rest. */
export interface WebhookJobData {
  deliveryId: string;
  round: number;
}

/**
 * A job per round of a delivery that its first attempt did not settle: the first round's id is the
 * delivery's, so a dispatcher that queues it twice queues one job. Retries are the delivery's own (its record counts attempts and
 * the job waits among the delayed ones between them); BullMQ's attempts cover a worker that died
 * holding the job.
 */
export const WEBHOOK_JOB_OPTIONS: JobsOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { count: 0 },
  removeOnFail: { age: 24 * 3600, count: 1000 },
};

export function webhookJobId(deliveryId: string, round: number): string {
  return round === 0 ? deliveryId : `${deliveryId}-r${round}`;
}

export function createWebhookQueue(deps: { connection: Redis; keys: KeySpace }): Queue<WebhookJobData> {
  return new Queue<WebhookJobData>(WEBHOOK_QUEUE, { connection: deps.connection, prefix: deps.keys.prefix, defaultJobOptions: WEBHOOK_JOB_OPTIONS });
}

/** Queues a round of a delivery, to be taken at once or, with `delayMs`, that much later. */
export function enqueueDelivery(queue: Queue<WebhookJobData>, deliveryId: string, round: number, delayMs = 0) {
  return queue.add('deliver', { deliveryId, round }, { jobId: webhookJobId(deliveryId, round), ...(delayMs > 0 ? { delay: delayMs } : {}) });
}
