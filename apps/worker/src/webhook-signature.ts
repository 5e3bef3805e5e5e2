import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/** Keys a signer keeps: an HMAC under a key object costs a third of one under the key's bytes. */
const MAX_KEYS_REMEMBERED = 10_000;

export type WebhookSigner = (secrets: readonly string[], id: string, timestampSeconds: number, body: string) => string;

/**
 * The `webhook-signature` header of the Standard Webhooks specification: `v1,<Base64 HMAC-SHA256>`
 * of `<id>.<timestamp>.<body>` under each secret (`whsec_` and the key in Base64), separated by
 * spaces, so a receiver that knows either secret of a rotation verifies it. Each secret's key is
 * made once, not once per delivery.
 */
export function createWebhookSigner(): WebhookSigner {
  const keys = new Map<string, KeyObject>();
  const keyOf = (secret: string) => {
    let key = keys.get(secret);
    if (key === undefined) {
      key = createSecretKey(Buffer.from(secret.replace(/^whsec_/, ''), 'base64'));
      if (keys.size >= MAX_KEYS_REMEMBERED) keys.clear();
      keys.set(secret, key);
    }
    return key;
  };
  return (secrets, id, timestampSeconds, body) =>
    secrets.map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`).join(' ');
}
