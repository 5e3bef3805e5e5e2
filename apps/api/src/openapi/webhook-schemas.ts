import { WEBHOOK_EVENT_TYPES } from '@ces/store';
import { z } from 'zod';

/**
 * The shapes of the webhook requests and answers (formats/webhook-representations.ts builds the
 * answers), for the OpenAPI document. Times are epoch milliseconds as text, as everywhere.
 */

const epochText = z.string().meta({ description: 'Epoch milliseconds, as text.' });
const eventType = z.enum(WEBHOOK_EVENT_TYPES);

export const webhookNameParamsSchema = z.object({
  name: z.string().meta({
    description: 'A webhook name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit; `notify` names the notify secret.',
  }),
});

export const deliveryParamsSchema = webhookNameParamsSchema.extend({
  id: z.string().meta({ description: 'A delivery id (its `webhook-id`): `msg_` and 32 lowercase hexadecimal digits.' }),
});

export const webhookRequestBodySchema = z
  .object({
    url: z.string().meta({ description: 'Where deliveries are POSTed: an `https` URL.' }),
    events: z.array(eventType.meta({ xml: { name: 'event' } })).min(1),
    choreos: z
      .array(z.string().meta({ xml: { name: 'choreo' } }))
      .optional()
      .meta({ description: 'Choreo patterns of the runs it wants; every run its writer may see without them.' }),
  })
  .meta({
    id: 'WebhookRequest',
    description: 'A subscription; for `notify`, an empty object. XML: `<webhook><url/><events><event/></events><choreos><choreo/></choreos></webhook>`.',
    xml: { name: 'webhook' },
  });

const secret = z.string().meta({ description: 'The signing secret (`whsec_…`): answered once, when it is made.' });
const previousSecretUntil = epochText.optional().meta({ description: 'While a rotated secret still signs beside the new one: until when.' });

const webhookFields = {
  name: z.string(),
  url: z.string(),
  events: z.array(eventType.meta({ xml: { name: 'event' } })),
  choreos: z.array(z.string().meta({ xml: { name: 'choreo' } })).optional(),
  created: epochText,
  updated: epochText,
  disabled: z
    .object({ at: epochText, reason: z.string() })
    .optional()
    .meta({ description: 'Present once the endpoint answered 410: nothing is sent until the webhook is written again.' }),
  previousSecretUntil,
};

export const webhookSchema = z
  .object({ ...webhookFields, secret: secret.optional() })
  .meta({ id: 'Webhook', description: 'A subscription; `secret` only in the answer that created it.', xml: { name: 'webhook' } });

export const notifySecretSchema = z
  .object({ name: z.literal('notify'), created: epochText, previousSecretUntil, secret: secret.optional() })
  .meta({ id: 'NotifySecret', description: "The secret that signs runs' own call-backs (`?notify=`).", xml: { name: 'webhook' } });

export const webhookOrNotifySchema = z.union([webhookSchema, notifySecretSchema]);

export const webhookListSchema = z
  .object({ webhooks: z.array(z.object(webhookFields).meta({ xml: { name: 'webhook' } })) })
  .meta({ id: 'WebhookList', xml: { name: 'webhooks' } });

export const rotatedSecretSchema = z
  .object({ name: z.string(), secret, previousSecretUntil: epochText })
  .meta({ id: 'RotatedSecret', description: 'The new secret; the one it replaces signs beside it until `previousSecretUntil`.', xml: { name: 'webhook' } });

const deliveryFields = {
  id: z.string().meta({ description: 'The `webhook-id` of every attempt.' }),
  event: eventType,
  execution: z.string().meta({ description: 'The execution id.' }),
  state: z.enum(['pending', 'delivered', 'dead']),
  attempts: z.string(),
  created: epochText,
  lastStatus: z.string().optional().meta({ description: "The endpoint's last HTTP status; 0 when it did not answer." }),
  lastError: z.string().optional(),
  nextAttempt: epochText.optional().meta({ description: 'While pending.' }),
  deliveredAt: epochText.optional(),
};

export const deliverySchema = z.object(deliveryFields).meta({ id: 'WebhookDelivery', xml: { name: 'delivery' } });

export const deliveryListSchema = z
  .object({ deliveries: z.array(z.object(deliveryFields).meta({ xml: { name: 'delivery' } })) })
  .meta({ id: 'WebhookDeliveries', description: 'Newest first.', xml: { name: 'deliveries' } });
