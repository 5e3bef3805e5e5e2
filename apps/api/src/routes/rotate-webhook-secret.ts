import { SECRET_OVERLAP_MS } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { respond } from '../formats/respond.ts';
import { rotatedSecret } from '../formats/webhook-representations.ts';
import { BASE_PATH } from '../base-path.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { rotatedSecretSchema, webhookNameParamsSchema } from '../openapi/webhook-schemas.ts';
import { checkedWebhookName, NOTIFY_WEBHOOK, requireWebhookWriter, webhookStoreOrUnavailable } from '../webhooks/webhook-access.ts';
import type { WebhookRouteDeps } from './webhook-deps.ts';

export const rotateWebhookSecretOperation: Operation = {
  method: 'post',
  path: `${BASE_PATH}/webhooks/{name}/rotate-secret`,
  operationId: 'rotateWebhookSecret',
  tags: ['Webhooks'],
  summary: "Rotate a webhook's secret",
  description: 'Extension. A new signing secret, answered once; the one it replaces still signs beside it for 24 hours. `notify` rotates the notify secret.',
  security: ACCOUNT_SECURITY,
  request: { params: webhookNameParamsSchema },
  responses: { 200: answer('The new secret.', rotatedSecretSchema), ...errorAnswers() },
};

export function rotateWebhookSecretRoute(deps: { webhooks?: WebhookRouteDeps }) {
  return new Hono<AppEnv>().post('/webhooks/:name/rotate-secret', async (c) => {
    const webhooks = webhookStoreOrUnavailable(deps.webhooks?.store);
    const principal = c.get('principal');
    requireWebhookWriter(principal, 'rotate webhook secrets');
    const name = checkedWebhookName(c.req.param('name'));
    const started = Date.now();
    const secret = name === NOTIFY_WEBHOOK ? await webhooks.rotateNotifySecret(principal.account) : await webhooks.rotateSecret(principal.account, name);
    if (!secret) throw new ApiError('NOT_FOUND', 'No such webhook.');
    return respond(c, 200, rotatedSecret(name, secret, started + SECRET_OVERLAP_MS));
  });
}
