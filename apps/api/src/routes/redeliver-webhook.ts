import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { respond } from '../formats/respond.ts';
import { deliveryDetails } from '../formats/webhook-representations.ts';
import { BASE_PATH } from '../base-path.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { deliveryParamsSchema, deliverySchema } from '../openapi/webhook-schemas.ts';
import { redeliverDelivery } from '../webhooks/redeliver-delivery.ts';
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
    const delivery = await redeliverDelivery(deps.webhooks, c.get('principal'), c.req.param('name'), c.req.param('id'));
    return respond(c, 202, deliveryDetails(delivery));
  });
}
