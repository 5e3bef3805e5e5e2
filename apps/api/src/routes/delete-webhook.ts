import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { BASE_PATH } from '../base-path.ts';
import { ACCOUNT_SECURITY, errorAnswers, type Operation } from '../openapi/operation.ts';
import { webhookNameParamsSchema } from '../openapi/webhook-schemas.ts';
import { checkedWebhookName, NOTIFY_WEBHOOK, requireWebhookWriter, webhookStoreOrUnavailable } from '../webhooks/webhook-access.ts';
import type { WebhookRouteDeps } from './webhook-deps.ts';

export const deleteWebhookOperation: Operation = {
  method: 'delete',
  path: `${BASE_PATH}/webhooks/{name}`,
  operationId: 'deleteWebhook',
  tags: ['Webhooks'],
  summary: 'Delete a webhook',
  description: 'Extension. Nothing more is sent to it; its pending deliveries end dead. `notify` deletes the notify secret.',
  security: ACCOUNT_SECURITY,
  request: { params: webhookNameParamsSchema },
  responses: { 204: { description: 'Deleted.' }, ...errorAnswers() },
};

export function deleteWebhookRoute(deps: { webhooks?: WebhookRouteDeps }) {
  return new Hono<AppEnv>().delete('/webhooks/:name', async (c) => {
    const webhooks = webhookStoreOrUnavailable(deps.webhooks?.store);
    const principal = c.get('principal');
    requireWebhookWriter(principal, 'delete webhooks');
    const name = checkedWebhookName(c.req.param('name'));
    const deleted = name === NOTIFY_WEBHOOK ? await webhooks.deleteNotifySecret(principal.account) : await webhooks.delete(principal.account, name);
    if (!deleted) throw new ApiError('NOT_FOUND', 'No such webhook.');
    return c.body(null, 204);
  });
}
