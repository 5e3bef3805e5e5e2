import type { Authenticator, Principal } from '@ces/accounts';
import type { Context } from 'hono';
import { ApiError } from '../errors/api-error.ts';
import type { LoginThrottle } from './login-throttle.ts';

/**
 * The two limits on failed authentications: per client address and name guessed, and a much higher
 * ceiling per client address. One client guessing one name is stopped by the first, while the
 * other users, applications and operators behind the same address (a company's NAT, a proxy) go on
 * being served; a client trying name after name is stopped by the second.
 */
export interface LoginThrottles {
  byName: LoginThrottle;
  byAddress: LoginThrottle;
}

/** What checks credentials: the authenticator, and the throttles on clients that keep failing. */
export interface Authentication {
  authenticator: Authenticator;
  throttles: LoginThrottles;
  clientAddress: (c: Context) => string;
}

export interface Checks {
  /**
   * Who the credentials claim to be (the account and name, or the operator's name): the failures
   * of one client are counted per name, as well as in all.
   */
  name: string;
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

function tooMany(retryAfterSeconds: number): ApiError {
  return new ApiError('TOO_MANY_REQUESTS', 'Too many failed authentications from this client. Retry later.', {
    headers: { 'Retry-After': String(retryAfterSeconds) },
    limit: 'auth-failures',
  });
}

/**
 * One authentication under the throttles. The cheap check goes first, for everyone: an application
 * key is never refused for what passwords did. A client over either limit — for the name it gives,
 * or for its address in all — then gets 429 and no password is checked, right or wrong. Otherwise
 * the full check waits for a turn under both, always the name's first: one who holds an address's
 * turn waits for nothing more, so the two cannot wait on each other. An attempt that throws (Redis
 * down) costs no failure.
 */
export async function throttled(c: Context, authentication: Authentication, checks: Checks): Promise<Principal | undefined> {
  const cheap = await checks.cheap?.();
  if (cheap) return cheap;
  const { byName, byAddress } = authentication.throttles;
  const address = authentication.clientAddress(c);
  // An address holds no newline: the key cannot be read as another address's.
  const addressAndName = `${address}\n${checks.name}`;
  const refused = byName.refusedFor(addressAndName) || byAddress.refusedFor(address);
  if (refused) throw tooMany(refused);
  const nameTurn = await byName.acquire(addressAndName, checks.hashes);
  if (typeof nameTurn === 'number') throw tooMany(nameTurn);
  const addressTurn = await byAddress.acquire(address, checks.hashes);
  if (typeof addressTurn === 'number') {
    byName.end(nameTurn, 0);
    throw tooMany(addressTurn);
  }
  let failures = 0;
  try {
    const outcome = await checks.full();
    failures = outcome.failures;
    return outcome.principal;
  } finally {
    byAddress.end(addressTurn, failures);
    byName.end(nameTurn, failures);
  }
}
