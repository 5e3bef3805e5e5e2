import type { Delivery, WebhookDescription } from '@ces/store';
import type { Representation } from './respond.ts';
import type { XmlTree } from './xml.ts';

/** The wire shapes of webhooks, their secrets and deliveries, in JSON and XML. */

function webhookFields(webhook: WebhookDescription): Record<string, unknown> {
  return {
    name: webhook.name,
    url: webhook.url,
    events: webhook.events,
    ...(webhook.choreos ? { choreos: webhook.choreos } : {}),
    created: String(webhook.created),
    updated: String(webhook.updated),
    ...(webhook.disabled ? { disabled: { at: String(webhook.disabled.at), reason: webhook.disabled.reason } } : {}),
    ...(webhook.previousSecretUntil !== undefined ? { previousSecretUntil: String(webhook.previousSecretUntil) } : {}),
  };
}

function webhookXml(fields: Record<string, unknown>): XmlTree {
  const { events, choreos, ...rest } = fields as { events: string[]; choreos?: string[] };
  return { ...(rest as Record<string, XmlTree>), events: { event: events }, ...(choreos ? { choreos: { choreo: choreos } } : {}) };
}

/** A subscription; its secret only in the answer that created it. */
export function webhookDetails(webhook: WebhookDescription, secret?: string): Representation {
  const fields = { ...webhookFields(webhook), ...(secret !== undefined ? { secret } : {}) };
  return { json: fields, xml: { root: 'webhook', tree: webhookXml(fields) } };
}

export function webhookList(webhooks: readonly WebhookDescription[]): Representation {
  const all = webhooks.map(webhookFields);
  return { json: { webhooks: all }, xml: { root: 'webhooks', tree: { webhook: all.map(webhookXml) } } };
}

export function notifySecretDetails(notify: { created: number; previousSecretUntil?: number }, secret?: string): Representation {
  const fields = {
    name: 'notify',
    created: String(notify.created),
    ...(notify.previousSecretUntil !== undefined ? { previousSecretUntil: String(notify.previousSecretUntil) } : {}),
    ...(secret !== undefined ? { secret } : {}),
  };
  return { json: fields, xml: { root: 'webhook', tree: fields } };
}

export function rotatedSecret(name: string, secret: string, previousSecretUntil: number): Representation {
  const fields = { name, secret, previousSecretUntil: String(previousSecretUntil) };
  return { json: fields, xml: { root: 'webhook', tree: fields } };
}

function deliveryFields(delivery: Delivery): Record<string, string> {
  return {
    id: delivery.id,
    event: delivery.type,
    execution: delivery.executionId,
    state: delivery.state,
    attempts: String(delivery.attempts),
    created: String(delivery.created),
    ...(delivery.lastStatus !== undefined ? { lastStatus: String(delivery.lastStatus) } : {}),
    ...(delivery.lastError ? { lastError: delivery.lastError } : {}),
    ...(delivery.state === 'pending' && delivery.nextAttempt !== undefined ? { nextAttempt: String(delivery.nextAttempt) } : {}),
    ...(delivery.deliveredAt !== undefined ? { deliveredAt: String(delivery.deliveredAt) } : {}),
  };
}

export function deliveryDetails(delivery: Delivery): Representation {
  const fields = deliveryFields(delivery);
  return { json: fields, xml: { root: 'delivery', tree: fields } };
}

export function deliveryList(deliveries: readonly Delivery[]): Representation {
  const all = deliveries.map(deliveryFields);
  return { json: { deliveries: all }, xml: { root: 'deliveries', tree: { delivery: all } } };
}
