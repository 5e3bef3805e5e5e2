import { enqueueDelivery } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { respond } from '../formats/respond.ts';
import { deliveryDetails } from '../formats/webhook-representations.ts';
import { BASE_PATH } from '../base-path.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { deliveryParamsSchema, deliverySchema } from '../openapi/webhook-schemas.ts';
import { checkedDeliveryId, checkedWebhookName, requireWebhookWriter, webhookStoreOrUnavailable } from '../webhooks/webhook-access.ts';
import type { WebhookRouteDeps } from './webhook-deps.ts';

export const redeliverWebhookOperation: Operation = {
  method: 'post',
  path: `${BASE_PATH}/webhooks/{name}/deliveries/{id}/redeliver`,
  operationId: 'redeliverWebhook',
  tags: ['Webhooks'],
  summary: 'Send a delivery again',
  description: 'Extension. Sends the delivery again, with the same `webhook-id` and body, retried as a new one would be, whatever it came to before.',
  security: ACCOUNT_SECURITY,
  request: { params: deliveryParamsSchema },
  responses: { 202: answer('Queued again.', deliverySchema), ...errorAnswers() },
};

export function redeliverWebhookRoute(deps: { webhooks?: WebhookRouteDeps }) {
  return new Hono<AppEnv>().post('/webhooks/:name/deliveries/:id/redeliver', async (c) => {
    webhookStoreOrUnavailable(deps.webhooks?.store);
    const { deliveries, queue } = deps.webhooks as WebhookRouteDeps;
    const principal = c.get('principal');
    requireWebhookWriter(principal, 'redeliver webhooks');
    const name = checkedWebhookName(c.req.param('name'));
    const id = checkedDeliveryId(c.req.param('id'));
    const delivery = await deliveries.get(id);
    // Another account's delivery, or another webhook's, is not there.
    if (!delivery || delivery.account !== principal.account || delivery.webhook !== name) throw new ApiError('NOT_FOUND', 'No such delivery.');
    const round = await deliveries.redeliver(id, Date.now());
    if (round === 0) throw new ApiError('NOT_FOUND', 'No such delivery.');
    await enqueueDelivery(queue, id, round);
    const now = await deliveries.get(id);
    return respond(c, 202, deliveryDetails(now ?? delivery));
  });
}
