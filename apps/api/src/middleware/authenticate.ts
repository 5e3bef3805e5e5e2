import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { throttled, type Authentication } from '../auth/throttled-authentication.ts';
import { ApiError } from '../errors/api-error.ts';

export const REALM = 'Choreo Execution Service';
const CHALLENGE = { 'WWW-Authenticate': `Basic realm="${REALM}", charset="UTF-8"` };

/** `Basic base64(name:secret)` → [name, secret], or undefined when absent or malformed. */
export function parseBasicAuthorization(header: string | undefined): [string, string] | undefined {
  const encoded = header?.match(/^Basic[ ]+([A-Za-z0-9+/]+={0,2})\s*$/i)?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

/**
 * The account named by `x-service-domain`: `/<account>/master` or `<account>/master`. Account
 * names are stored in lowercase, and clients of the original service were not strict about case.
 */
export function parseDomainHeader(header: string | undefined): string | undefined {
  const match = header
    ?.trim()
    .toLowerCase()
    .match(/^\/?([a-z0-9][a-z0-9-]{0,62})\/master\/?$/);
  return match?.[1];
}

/**
 * Every failed authentication gets this same answer — missing header, unknown account or name,
 * wrong secret — so that it tells a prober nothing about which part was wrong.
 */
export function unauthorized(message?: string) {
  return new ApiError('UNAUTHORIZED', message, { headers: CHALLENGE });
}

/** Said on `/ops` and `/metrics`, where the catalogue's words (an account's user or application) would mislead. */
const OPERATOR_UNAUTHORIZED = "Authentication is required: HTTP Basic with an operator's name and password.";

/**
 * Account users and applications: the account comes from the domain header, and must agree with
 * the Host when the Host is `<account>.<serviceHost>`.
 */
export function authenticateAccount(options: { authentication: Authentication; serviceHost: string }): MiddlewareHandler<AppEnv> {
  const { authentication } = options;
  const hostSuffix = `.${options.serviceHost.toLowerCase()}`;
  return async (c, next) => {
    const account = parseDomainHeader(c.req.header('x-service-domain'));
    if (!account) {
      throw new ApiError('BAD_REQUEST', 'The x-service-domain header must name the account as /<account>/master.');
    }
    const host = c.req.header('host')?.toLowerCase().replace(/:\d+$/, '');
    if (host?.endsWith(hostSuffix)) {
      const hostAccount = host.slice(0, -hostSuffix.length);
      if (hostAccount !== account) {
        throw new ApiError('BAD_REQUEST', 'The account in the host name and in x-service-domain differ.');
      }
    }
    const credentials = parseBasicAuthorization(c.req.header('authorization'));
    if (!credentials) throw unauthorized();
    const [name, secret] = credentials;
    const { authenticator } = authentication;
    const principal = await throttled(c, authentication, {
      name: `${account}/${name}`,
      cheap: () => authenticator.authenticateKey(account, name, secret),
      full: async () => {
        const principal = await authenticator.authenticate(account, name, secret);
        return { principal, failures: principal ? 0 : 1 };
      },
    });
    if (!principal) throw unauthorized();
    c.set('principal', principal);
    await next();
  };
}

/**
 * Operators of the service (not members of any account): the only ones who reach `/ops` and
 * `/metrics`. Credentials that are no operator's fail like any failed authentication (401 with the
 * challenge, so a browser on the dashboard asks again), unless they are an account's credentials
 * for the account the request names: those are a known caller without the right, 403.
 */
export function authenticateOperator(options: { authentication: Authentication }): MiddlewareHandler<AppEnv> {
  const { authenticator } = options.authentication;
  return async (c, next) => {
    const credentials = parseBasicAuthorization(c.req.header('authorization'));
    if (!credentials) throw unauthorized(OPERATOR_UNAUTHORIZED);
    // An account's credentials that verify are a known caller without the right (403), but they
    // cost hashes like any failure, and are counted so: an application key is told apart first,
    // for nothing; a password after the operator's check, for up to two hashes.
    const account = parseDomainHeader(c.req.header('x-service-domain'));
    const principal = await throttled(c, options.authentication, {
      // An operator's name, or an account's name when the request names an account.
      name: account ? `${account}/${credentials[0]}` : credentials[0],
      cheap: async () => (account ? authenticator.authenticateKey(account, credentials[0], credentials[1]) : undefined),
      hashes: account ? 2 : 1,
      full: async () => {
        const operator = await authenticator.authenticateOperator(credentials[0], credentials[1]);
        if (operator) return { principal: operator, failures: 0 };
        if (!account) return { failures: 1 };
        return { principal: await authenticator.authenticate(account, credentials[0], credentials[1]), failures: 2 };
      },
    });
    if (!principal) throw unauthorized(OPERATOR_UNAUTHORIZED);
    if (principal.kind !== 'operator') throw new ApiError('FORBIDDEN', 'Only operators of the service may use /ops and /metrics.');
    c.set('principal', principal);
    await next();
  };
}
