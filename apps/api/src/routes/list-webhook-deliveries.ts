import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { respond } from '../formats/respond.ts';
import { deliveryList } from '../formats/webhook-representations.ts';
import { BASE_PATH } from '../base-path.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { deliveryListSchema, webhookNameParamsSchema } from '../openapi/webhook-schemas.ts';
import { checkedWebhookName, NOTIFY_WEBHOOK, requireWebhookWriter, webhookStoreOrUnavailable } from '../webhooks/webhook-access.ts';
import type { WebhookRouteDeps } from './webhook-deps.ts';

/** Most deliveries a list shows: those a subscription keeps. */
const SHOWN = 100;

export const listWebhookDeliveriesOperation: Operation = {
  method: 'get',
  path: `${BASE_PATH}/webhooks/{name}/deliveries`,
  operationId: 'listWebhookDeliveries',
  tags: ['Webhooks'],
  summary: "A webhook's recent deliveries",
  description: 'Extension. Newest first: event, execution, attempts, last status and error, next attempt, delivered or dead.',
  security: ACCOUNT_SECURITY,
  request: { params: webhookNameParamsSchema },
  responses: { 200: answer('The deliveries.', deliveryListSchema), ...errorAnswers() },
};

export function listWebhookDeliveriesRoute(deps: { webhooks?: WebhookRouteDeps }) {
  return new Hono<AppEnv>().get('/webhooks/:name/deliveries', async (c) => {
    const webhooks = webhookStoreOrUnavailable(deps.webhooks?.store);
    const principal = c.get('principal');
    requireWebhookWriter(principal, 'read webhook deliveries');
    const name = checkedWebhookName(c.req.param('name'));
    const exists = name === NOTIFY_WEBHOOK ? await webhooks.notifySecret(principal.account) : await webhooks.get(principal.account, name);
    if (!exists) throw new ApiError('NOT_FOUND', 'No such webhook.');
    return respond(c, 200, deliveryList(await (deps.webhooks?.deliveries.recent(principal.account, name, SHOWN) ?? [])));
  });
}
