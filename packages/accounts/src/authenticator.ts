import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { CREDENTIAL_RIGHTS, type AccountStore, type CredentialKind, type CredentialRight, type StoredCredential } from './account-store.ts';
import { decoyPasswordHash, MIN_KEY_LENGTH, verifyKey, verifyPassword } from './secrets.ts';

export interface Principal {
  kind: CredentialKind | 'operator';
  /** The account, or '' for an operator. */
  account: string;
  name: string;
  choreos: string[];
  /** What it may do besides running Choreos: a user everything, an application what it was granted. */
  rights: readonly CredentialRight[];
}

export interface Authenticator {
  /** The principal for an account's user or application, or undefined. */
  authenticate(account: string, name: string, secret: string): Promise<Principal | undefined>;
  authenticateOperator(name: string, secret: string): Promise<Principal | undefined>;
  /**
   * An account's application by its key alone: no password checked, no decoy hashed, so it costs
   * microseconds whatever the answer — for clients that may not cost a password hash any more.
   */
  authenticateKey(account: string, name: string, secret: string): Promise<Principal | undefined>;
}

/**
 * Checks Basic credentials. A password hash costs milliseconds by design, so a successful check of
 * a password is remembered for `cacheTtlMs` under an HMAC of (stored hash, secret) with a
 * per-process key: no secret is kept in clear, and changing or revoking a credential changes its
 * stored hash, which the cache key includes, so it stops working at once. Checks of the same
 * secret against the same hash that overlap share one hash: the requests of a busy client all
 * miss together when its remembered check expires.
 */
export function createAuthenticator(deps: { accounts: AccountStore; cacheTtlMs?: number; cacheSize?: number }): Authenticator {
  const { accounts } = deps;
  const cacheTtlMs = deps.cacheTtlMs ?? 60_000;
  const cacheSize = deps.cacheSize ?? 10_000;
  // A KeyObject made once: given a Buffer, createHmac builds one on every call, which costs several
  // times the HMAC itself — and this runs on every request of a user.
  const cacheKeySecret = createSecretKey(randomBytes(32));
  const verified = new Map<string, number>();
  const verifying = new Map<string, Promise<boolean>>();

  function cacheKey(stored: StoredCredential, secret: string) {
    return createHmac('sha256', cacheKeySecret).update(stored.secretHash).update('\0').update(secret).digest('base64');
  }

  const isKey = (stored: StoredCredential) => stored.secretHash.startsWith('sha256$');

  function remembered(key: string): boolean {
    const expires = verified.get(key);
    return expires !== undefined && expires > Date.now();
  }

  async function verify(stored: StoredCredential, secret: string): Promise<boolean> {
    if (isKey(stored)) return verifyKey(secret, stored.secretHash);
    const key = cacheKey(stored, secret);
    if (remembered(key)) return true;
    let pending = verifying.get(key);
    if (!pending) {
      pending = verifyPassword(secret, stored.secretHash).then((ok) => {
        if (ok) {
          const oldest = verified.keys().next();
          if (verified.size >= cacheSize && !oldest.done) verified.delete(oldest.value);
          verified.set(key, Date.now() + cacheTtlMs);
        }
        return ok;
      });
      verifying.set(key, pending);
      void pending.finally(() => verifying.delete(key)).catch(() => {});
    }
    return pending;
  }

  async function decoy(secret: string) {
    await verifyPassword(secret, await decoyPasswordHash());
  }

  return {
    async authenticate(account, name, secret) {
      const [user, app] = await Promise.all([accounts.getCredential(account, 'user', name), accounts.getCredential(account, 'app', name)]);
      if (!user && !app) {
        await decoy(secret);
        return undefined;
      }
      for (const [kind, stored] of [
        ['user', user],
        ['app', app],
      ] as const) {
        if (stored && (await verify(stored, secret))) return { kind, account, name, choreos: stored.choreos, rights: rightsOf(kind, stored) };
      }
      // A wrong application key is checked in microseconds; without a hash here it would answer
      // faster than an unknown name does, telling a prober which application names exist.
      if (!user) await decoy(secret);
      return undefined;
    },

    async authenticateKey(account, name, secret) {
      // Shorter than any key: not worth a look-up, which is all this check may cost anyone.
      if (secret.length < MIN_KEY_LENGTH) return undefined;
      const app = await accounts.getCredential(account, 'app', name);
      if (!app || !isKey(app) || !verifyKey(secret, app.secretHash)) return undefined;
      return { kind: 'app', account, name, choreos: app.choreos, rights: rightsOf('app', app) };
    },

    async authenticateOperator(name, secret) {
      const stored = await accounts.getOperator(name);
      if (!stored) {
        await decoy(secret);
        return undefined;
      }
      return (await verify(stored, secret)) ? { kind: 'operator', account: '', name, choreos: [], rights: [] } : undefined;
    },
  };
}

function rightsOf(kind: CredentialKind, stored: StoredCredential): readonly CredentialRight[] {
  return kind === 'user' ? CREDENTIAL_RIGHTS : (stored.rights ?? []);
}
