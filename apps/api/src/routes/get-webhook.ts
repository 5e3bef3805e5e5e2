import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { respond } from '../formats/respond.ts';
import { notifySecretDetails, webhookDetails } from '../formats/webhook-representations.ts';
import { BASE_PATH } from '../base-path.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { webhookNameParamsSchema, webhookOrNotifySchema } from '../openapi/webhook-schemas.ts';
import { checkedWebhookName, NOTIFY_WEBHOOK, requireWebhookWriter, webhookStoreOrUnavailable } from '../webhooks/webhook-access.ts';
import type { WebhookRouteDeps } from './webhook-deps.ts';

export const getWebhookOperation: Operation = {
  method: 'get',
  path: `${BASE_PATH}/webhooks/{name}`,
  operationId: 'getWebhook',
  tags: ['Webhooks'],
  summary: 'Show a webhook',
  description: 'Extension. A subscription as written, whether a 410 disabled it, and whether a rotated secret still signs; never its secret.',
  security: ACCOUNT_SECURITY,
  request: { params: webhookNameParamsSchema },
  responses: { 200: answer('The webhook.', webhookOrNotifySchema), ...errorAnswers() },
};

export function getWebhookRoute(deps: { webhooks?: WebhookRouteDeps }) {
  return new Hono<AppEnv>().get('/webhooks/:name', async (c) => {
    const webhooks = webhookStoreOrUnavailable(deps.webhooks?.store);
    const principal = c.get('principal');
    requireWebhookWriter(principal, 'read webhooks');
    const name = checkedWebhookName(c.req.param('name'));
    if (name === NOTIFY_WEBHOOK) {
      const notify = await webhooks.notifySecret(principal.account);
      if (!notify) throw new ApiError('NOT_FOUND', 'This account has no notify secret.');
      return respond(c, 200, notifySecretDetails(notify));
    }
    const webhook = await webhooks.get(principal.account, name);
    if (!webhook) throw new ApiError('NOT_FOUND', 'No such webhook.');
    return respond(c, 200, webhookDetails(webhook));
  });
}
