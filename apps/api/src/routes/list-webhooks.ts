import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { respond } from '../formats/respond.ts';
import { webhookList } from '../formats/webhook-representations.ts';
import { BASE_PATH } from '../base-path.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { webhookListSchema } from '../openapi/webhook-schemas.ts';
import { requireWebhookWriter, webhookStoreOrUnavailable } from '../webhooks/webhook-access.ts';
import type { WebhookRouteDeps } from './webhook-deps.ts';

export const listWebhooksOperation: Operation = {
  method: 'get',
  path: `${BASE_PATH}/webhooks`,
  operationId: 'listWebhooks',
  tags: ['Webhooks'],
  summary: 'List webhooks',
  description: "Extension. The account's subscriptions by name, never their secrets.",
  security: ACCOUNT_SECURITY,
  responses: { 200: answer('The webhooks.', webhookListSchema), ...errorAnswers() },
};

export function listWebhooksRoute(deps: { webhooks?: WebhookRouteDeps }) {
  return new Hono<AppEnv>().get('/webhooks', async (c) => {
    const webhooks = webhookStoreOrUnavailable(deps.webhooks?.store);
    const principal = c.get('principal');
    requireWebhookWriter(principal, 'read webhooks');
    return respond(c, 200, webhookList(await webhooks.list(principal.account)));
  });
}
