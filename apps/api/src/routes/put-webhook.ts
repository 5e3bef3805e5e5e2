import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { readFromClient } from '../errors/client-closed-request.ts';
import { bodyText } from '../formats/body-text.ts';
import { documentProblems } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { notifySecretDetails, webhookDetails } from '../formats/webhook-representations.ts';
import { requestBodyLimit } from '../middleware/request-body-limit.ts';
import { BASE_PATH } from '../base-path.ts';
import { ACCOUNT_SECURITY, answer, bothFormats, errorAnswers, type Operation } from '../openapi/operation.ts';
import { webhookNameParamsSchema, webhookOrNotifySchema, webhookRequestBodySchema } from '../openapi/webhook-schemas.ts';
import { NOTIFY_WEBHOOK, requireWebhookWriter, WEBHOOK_NAME, webhookStoreOrUnavailable } from '../webhooks/webhook-access.ts';
import { checkWebhookDocument, readWebhookDocument } from '../webhooks/webhook-request.ts';
import type { WebhookRouteDeps } from './webhook-deps.ts';

export const putWebhookOperation: Operation = {
  method: 'put',
  path: `${BASE_PATH}/webhooks/{name}`,
  operationId: 'putWebhook',
  tags: ['Webhooks'],
  summary: 'Create or replace a webhook',
  description:
    'Extension. Subscribes an `https` URL to runs’ events (`execution.started`, `execution.ended`, `execution.failed`), signed as Standard Webhooks. ' +
    'Created (201), the answer holds its signing secret, never shown again; replaced (200), it keeps its secret and is enabled again. ' +
    '`notify` with `{}` creates the secret that signs runs’ own call-backs (`?notify=`).',
  security: ACCOUNT_SECURITY,
  request: { params: webhookNameParamsSchema, body: { description: 'The subscription.', required: true, content: bothFormats(webhookRequestBodySchema) } },
  responses: {
    200: answer('Replaced (or, for `notify`, kept as it was).', webhookOrNotifySchema),
    201: answer('Created, with its secret.', webhookOrNotifySchema),
    ...errorAnswers(['CONFLICT', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']),
  },
};

/** Creates (201, with its secret) or replaces (200) a subscription, or creates the notify secret. */
export function putWebhookRoute(deps: { webhooks?: WebhookRouteDeps; bodyLimitBytes: number; maxWebhooksPerAccount: number }) {
  return new Hono<AppEnv>().put('/webhooks/:name', requestBodyLimit({ maxBytes: deps.bodyLimitBytes }), async (c) => {
    const webhooks = webhookStoreOrUnavailable(deps.webhooks?.store);
    const principal = c.get('principal');
    requireWebhookWriter(principal, 'write webhooks');
    const name = c.req.param('name');
    if (!WEBHOOK_NAME.test(name)) throw new ApiError('BAD_REQUEST', 'A webhook name is 1 to 128 letters, digits and . _ @ -, starting with a letter or digit.');
    const contentType = c.req.header('content-type');
    const text = bodyText(await readFromClient(c, () => c.req.arrayBuffer()), contentType);
    if (name === NOTIFY_WEBHOOK) {
      const document = text.trim() === '' ? {} : readWebhookDocument(text, contentType);
      if (document === null || typeof document !== 'object' || Object.keys(document).length > 0)
        throw new ApiError('BAD_REQUEST', 'The notify secret takes an empty body: {}.');
      const secret = await webhooks.createNotifySecret(principal.account);
      const notify = await webhooks.notifySecret(principal.account);
      if (!notify) throw new Error('the notify secret vanished while written');
      return respond(c, secret ? 201 : 200, notifySecretDetails(notify, secret));
    }
    const checked = checkWebhookDocument(readWebhookDocument(text, contentType));
    if (!checked.ok) return respond(c, 400, documentProblems(checked.problems, c.get('requestId') ?? '', 'The webhook'));
    const put = await webhooks.put(principal.account, name, checked.spec, principal.choreos);
    if (put.outcome === 'too-many') throw new ApiError('CONFLICT', `This account already keeps ${deps.maxWebhooksPerAccount} webhooks; delete one first.`);
    if (put.outcome === 'created') return respond(c, 201, webhookDetails(put.webhook, put.secret));
    return respond(c, 200, webhookDetails(put.webhook));
  });
}
