import { createHmac } from 'node:crypto';

/**
 * The `webhook-signature` header of the Standard Webhooks specification: `v1,<Base64 HMAC-SHA256>`
 * of `<id>.<timestamp>.<body>` under each secret (`whsec_` and the key in Base64), separated by
 * spaces, so a receiver that knows either secret of a rotation verifies it.
 */
export function webhookSignature(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
    })
    .join(' ');
}
