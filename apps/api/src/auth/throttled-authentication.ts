import type { Authenticator, Principal } from '@ces/accounts';
import type { Context } from 'hono';
import { ApiError } from '../errors/api-error.ts';
import type { LoginThrottle } from './login-throttle.ts';

/** What checks credentials: the authenticator, and the throttle on clients that keep failing. */
export interface Authentication {
  authenticator: Authenticator;
  throttle: LoginThrottle;
  clientAddress: (c: Context) => string;
}

export interface Checks {
  /**
   * What costs no hash and cannot be guessed, so needs no throttle: an application key. Not a
   * remembered password, or a burst of guesses could be tried against the memory at full speed
   * before the throttle has counted a single failure.
   */
  cheap?: () => Promise<Principal | undefined>;
  /** The full check, which may hash; `failures` is what it cost the client (0 on success). */
  full: () => Promise<{ principal?: Principal; failures: number }>;
  /** The hashes the full check may cost, which its turn holds. */
  hashes?: number;
}

/**
 * One authentication under the throttle. The cheap check goes first, for everyone: the programs
 * behind an address shared with whoever fails (a proxy, a NAT) keep working. A client over its
 * limit of failures then gets 429 and no password is checked, right or wrong. Otherwise the full
 * check waits for the client's turn. An attempt that throws (Redis down) costs no failure.
 */
export async function throttled(c: Context, authentication: Authentication, checks: Checks): Promise<Principal | undefined> {
  const cheap = await checks.cheap?.();
  if (cheap) return cheap;
  const { throttle } = authentication;
  const client = authentication.clientAddress(c);
  const turn = throttle.refusedFor(client) || (await throttle.acquire(client, checks.hashes));
  if (typeof turn === 'number') {
    throw new ApiError('TOO_MANY_REQUESTS', 'Too many failed authentications from this client. Retry later.', {
      headers: { 'Retry-After': String(turn) },
      limit: 'auth-failures',
    });
  }
  let failures = 0;
  try {
    const outcome = await checks.full();
    failures = outcome.failures;
    return outcome.principal;
  } finally {
    throttle.end(turn, failures);
  }
}
