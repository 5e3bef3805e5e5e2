import { Counter } from 'prom-client';
import type { MetricsRegistry } from './metrics-registry.ts';

/** How a webhook delivery's attempt came out, as the worker that made it records it. */
export type WebhookAttemptOutcome = 'delivered' | 'retry' | 'dead' | 'gone';

export interface WebhookMetrics {
  attempted(outcome: WebhookAttemptOutcome): void;
}

/** A worker's webhook delivery attempts by outcome: a rate of `dead` or `gone` is deliveries lost to their endpoints. */
export function createWebhookMetrics(registry: MetricsRegistry): WebhookMetrics {
  const attempts = new Counter({
    name: 'ces_webhook_attempts_total',
    help: 'Webhook delivery attempts this worker made, by outcome: delivered, retry (to be sent again), dead (given up), gone (the endpoint answered 410).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  return {
    attempted(outcome) {
      attempts.inc({ outcome });
    },
  };
}
