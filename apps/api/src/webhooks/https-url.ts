/** Longest URL a webhook or a run's call-back may have. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * Why `text` is not a URL deliveries may go to, or undefined when it is: `https` only (a delivery
 * carries a run's outputs), no credentials in it (they would be stored and shown in clear).
 */
export function httpsUrlProblem(text: unknown): string | undefined {
  if (typeof text !== 'string' || text.length > MAX_WEBHOOK_URL_LENGTH) return `must be an https URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an https URL such as https://example.com/hooks';
  }
  if (url.protocol !== 'https:') return 'must be an https URL: deliveries are sent over TLS only';
  if (url.username !== '' || url.password !== '') return 'must not hold credentials';
  return undefined;
}
