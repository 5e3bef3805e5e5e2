import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

/**
 * The session cookie, `__Host-` prefixed: the browser keeps it only if it is Secure, for this host
 * alone (no Domain) and the whole site (Path=/), so no sibling host can set or shadow it.
 */
const NAME = 'ces-console';

export const SESSION_COOKIE = `__Host-${NAME}`;

export function readSessionCookie(c: Context): string | undefined {
  return getCookie(c, NAME, 'host') || undefined;
}

export function writeSessionCookie(c: Context, token: string, lifetimeMs: number): void {
  setCookie(c, NAME, token, { path: '/', httpOnly: true, secure: true, sameSite: 'Strict', maxAge: Math.floor(lifetimeMs / 1000), prefix: 'host' });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, NAME, { path: '/', httpOnly: true, secure: true, sameSite: 'Strict', prefix: 'host' });
}
