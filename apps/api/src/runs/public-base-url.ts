/** A host name or an IPv6 literal in brackets, with an optional port: what a Host header may be. */
const HOST_HEADER = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

/**
 * The public address a run's URLs (callbacks, OAuth redirect URIs, call backs) are made under,
 * decided when the API accepts it: the API's PUBLIC_BASE_URL when set (behind a load balancer the
 * service cannot guess it), else `https://` and the Host the client used, which for an
 * `<account>.<SERVICE_HOST>` address is that address. The scheme is https either way: the API
 * serves clients over HTTPS only (with TRUST_PROXY, a proxy terminates it). A Host that is not a
 * valid host[:port] gives none (undefined): the worker's own setting then applies.
 */
export function publicBaseUrlOf(configured: string | undefined, host: string | undefined): string | undefined {
  if (configured !== undefined) return configured;
  const trimmed = host?.trim() ?? '';
  const match = HOST_HEADER.exec(trimmed);
  if (!match || trimmed.length > 260) return undefined;
  const port = match[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return undefined;
  return `https://${trimmed.toLowerCase()}`;
}
