import type { Principal } from '@ces/accounts';
import { type Delivery, enqueueDelivery } from '@ces/store';
import { ApiError } from '../errors/api-error.ts';
import type { WebhookRouteDeps } from '../routes/webhook-deps.ts';
import { checkedDeliveryId, checkedWebhookName, requireWebhookWriter, webhookStoreOrUnavailable } from './webhook-access.ts';

/**
 * Sends one of a webhook's deliveries again, in a new round, for the API and the console alike:
 * the credential needs the webhooks right, and another account's delivery, or another webhook's,
 * is not there. Answers the delivery as it is once queued again.
 */
export async function redeliverDelivery(
  webhooks: WebhookRouteDeps | undefined,
  principal: Principal,
  webhookName: string,
  deliveryId: string,
): Promise<Delivery> {
  webhookStoreOrUnavailable(webhooks?.store);
  const { deliveries, queue } = webhooks as WebhookRouteDeps;
  requireWebhookWriter(principal, 'redeliver webhooks');
  const name = checkedWebhookName(webhookName);
  const id = checkedDeliveryId(deliveryId);
  const delivery = await deliveries.get(id);
  if (!delivery || delivery.account !== principal.account || delivery.webhook !== name) throw new ApiError('NOT_FOUND', 'No such delivery.');
  const round = await deliveries.redeliver(id, Date.now());
  if (round === 0) throw new ApiError('NOT_FOUND', 'No such delivery.');
  await enqueueDelivery(queue, id, round);
  return (await deliveries.get(id)) ?? delivery;
}
