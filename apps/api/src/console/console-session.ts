import { createHash, timingSafeEqual } from 'node:crypto';
import type { AccountStore, Principal, StoredCredential } from '@ces/accounts';
import { CREDENTIAL_RIGHTS } from '@ces/accounts';
import type { ConsoleSession, ConsoleSessionStore } from '@ces/store';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { SIGN_IN_PATH } from './console-path.ts';
import { clearSessionCookie, readSessionCookie } from './session-cookie.ts';

/** What the console's sessions need: where they are kept, the credentials they stand on, how long they last. */
export interface ConsoleSessions {
  store: ConsoleSessionStore;
  /** The credentials as stored (the cached store, which credential changes reach at once). */
  credentials: AccountStore;
  lifetimeMs: number;
}

/** What a session keeps of its credential: a digest of its stored secret hash, which a new secret or a removal changes. */
export function credentialDigest(stored: StoredCredential): string {
  return createHash('sha256').update(stored.secretHash).digest('base64url');
}

async function storedCredentialOf(credentials: AccountStore, session: Pick<ConsoleSession, 'kind' | 'account' | 'name'>) {
  return session.kind === 'operator' ? credentials.getOperator(session.name) : credentials.getCredential(session.account, session.kind, session.name);
}

/**
 * The principal a session stands for, as its credential is now (patterns and rights included);
 * undefined once that credential is removed or its secret changed.
 */
export async function sessionPrincipal(credentials: AccountStore, session: ConsoleSession): Promise<Principal | undefined> {
  const stored = await storedCredentialOf(credentials, session);
  if (!stored || stored.revoked || stored.secretHash === '') return undefined;
  const expected = Buffer.from(credentialDigest(stored));
  const kept = Buffer.from(session.credential);
  if (expected.length !== kept.length || !timingSafeEqual(expected, kept)) return undefined;
  if (session.kind === 'operator') return { kind: 'operator', account: '', name: session.name, choreos: [], rights: [] };
  return {
    kind: session.kind,
    account: session.account,
    name: session.name,
    choreos: stored.choreos,
    rights: session.kind === 'user' ? CREDENTIAL_RIGHTS : (stored.rights ?? []),
  };
}

/** The credential's digest for a new session, read right after its secret was verified. */
export async function newSessionCredential(credentials: AccountStore, principal: Principal): Promise<string | undefined> {
  const kind = principal.kind;
  const stored = await storedCredentialOf(credentials, { kind, account: principal.account, name: principal.name });
  return stored && !stored.revoked ? credentialDigest(stored) : undefined;
}

/** Where the sign-in form sends the browser back to: only a console page of this site. */
export function safeReturnPath(value: string | undefined): string | undefined {
  if (!value?.startsWith('/console') || value.startsWith('//') || /[\\\s]/.test(value)) return undefined;
  return value;
}

function toSignIn(c: Context<AppEnv>) {
  const url = new URL(c.req.url);
  const back = c.req.method === 'GET' ? `${url.pathname}${url.search}` : undefined;
  return c.redirect(back ? `${SIGN_IN_PATH}?next=${encodeURIComponent(back)}` : SIGN_IN_PATH, 303);
}

/**
 * Console pages need a session: a valid cookie whose credential still is as it was. Without one,
 * the browser goes to the sign-in form, which brings it back here.
 */
export function requireSession(sessions: ConsoleSessions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = readSessionCookie(c);
    const session = token ? await sessions.store.get(token) : undefined;
    const principal = session ? await sessionPrincipal(sessions.credentials, session) : undefined;
    if (!token || !session || !principal) {
      if (token && session) await sessions.store.revoke(token);
      if (token) clearSessionCookie(c);
      return toSignIn(c);
    }
    c.set('principal', principal);
    c.set('consoleSession', session);
    await next();
  };
}

/** Whether a request comes from a page of this origin, when the browser says where it comes from. */
export function isSameOrigin(c: Context): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = c.req.header('origin');
  if (origin === undefined) return true;
  const host = c.req.header('host');
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Every form that changes something carries the session's CSRF token, and comes from a page of this
 * origin when the browser says where it comes from: another site's form can do neither.
 */
export function requireCsrf(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const body = await c.req.parseBody();
    const given = typeof body.csrf === 'string' ? body.csrf : '';
    if (!isSameOrigin(c) || !sameToken(given, c.get('consoleSession').csrf)) {
      throw new ApiError('FORBIDDEN', 'This form has expired or did not come from the console. Reload the page and try again.');
    }
    await next();
  };
}

/** Workers and queues are operators' pages, as `/ops` is. */
export function requireOperator(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get('principal').kind !== 'operator') throw new ApiError('FORBIDDEN', 'Only operators of the service may see this page.');
    await next();
  };
}
