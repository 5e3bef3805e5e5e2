import type { WebhookDeliveries, WebhookJobData, WebhookStore } from '@ces/store';
import type { Queue } from 'bullmq';

/** What the webhook routes use; absent when the service has no SECRETS_KEY (they answer 503). */
export interface WebhookRouteDeps {
  store: WebhookStore;
  deliveries: WebhookDeliveries;
  /** Where a redelivery's job goes. */
  queue: Queue<WebhookJobData>;
}
