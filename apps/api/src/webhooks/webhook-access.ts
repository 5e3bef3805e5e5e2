import type { Principal } from '@ces/accounts';
import { DELIVERY_ID, NOTIFY_WEBHOOK, type WebhookStore } from '@ces/store';
import { ApiError } from '../errors/api-error.ts';

/** A subscription's name, as in its path; `notify` names the account's notify secret instead. */
export const WEBHOOK_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/;

export { NOTIFY_WEBHOOK };

/** The webhook store, or 503 when the service was started without a key to seal secrets with. */
export function webhookStoreOrUnavailable(webhooks: WebhookStore | undefined): WebhookStore {
  if (!webhooks) throw new ApiError('SERVICE_UNAVAILABLE', 'Webhooks are not available: this service has no SECRETS_KEY to keep their secrets with.');
  return webhooks;
}

/** Webhooks tell where an account's runs go and what they made: users, and applications granted the right. */
export function requireWebhookWriter(principal: Principal, doing: string): void {
  if (!principal.rights.includes('webhooks')) {
    throw new ApiError('FORBIDDEN', `These credentials may not ${doing}: an application needs the "webhooks" right.`);
  }
}

/** An account's webhooks are its own: any other name, or another account's, is simply not there. */
export function checkedWebhookName(name: string): string {
  if (!WEBHOOK_NAME.test(name)) throw new ApiError('NOT_FOUND', 'No such webhook.');
  return name;
}

export function checkedDeliveryId(id: string): string {
  if (!DELIVERY_ID.test(id)) throw new ApiError('NOT_FOUND', 'No such delivery.');
  return id;
}
