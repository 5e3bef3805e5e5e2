import type { KeySpace } from '@ces/store';
import type { Redis } from 'ioredis';
import type { AccountStore, CredentialKind, StoredCredential } from './account-store.ts';

export interface CachedAccountStore extends AccountStore {
  /** Stops listening for changes and forgets every record; lookups then always ask Redis. */
  close(): Promise<void>;
}

interface CachedAnswer {
  /** Undefined is an answer too: no such credential. */
  record: StoredCredential | undefined;
  expires: number;
}

/**
 * An account store that remembers credential lookups in process, so that an authenticated request
 * costs no Redis round trip. Every write of the store publishes on `credentialsChangedChannel` in
 * the same transaction, and any message there clears everything remembered: writes are rare, so
 * nothing finer is worth it. Revoking or changing a credential thus takes effect as soon as the
 * message arrives, in every API process.
 *
 * Messages published while `subscriber` is not connected are lost, so from the moment it drops
 * until it has subscribed again nothing is remembered and every lookup asks Redis. What still goes
 * unannounced — a hash edited by hand in redis-cli, a connection that dies silently before ioredis
 * notices — is remembered for at most `ttlMs`.
 *
 * Absent credentials are remembered like present ones: every request with an application key also
 * looks up a user of that name, so otherwise each such request would still wait for Redis. A new
 * credential is announced like any change, so a remembered absence is as fresh as a remembered
 * record; and a prober trying many names pays a password hash for each until the API throttles it,
 * and after that only a look-up for secrets as long as a key: no dearer than the TLS handshakes
 * anyone may open, and at worst it pushes real entries out, which then cost a Redis read again.
 *
 * Writes go to the wrapped store and clear the cache once done, so this process sees its own changes
 * without waiting for the message.
 */
export async function createCachedAccountStore(deps: {
  store: AccountStore;
  /** A connection dedicated to pub/sub; it may be shared with other subscribers. */
  subscriber: Redis;
  keys: KeySpace;
  ttlMs?: number;
  maxEntries?: number;
}): Promise<CachedAccountStore> {
  const { store, subscriber } = deps;
  const ttlMs = deps.ttlMs ?? 10_000;
  const maxEntries = deps.maxEntries ?? 10_000;
  const channel = deps.keys.credentialsChangedChannel();
  const answers = new Map<string, CachedAnswer>();
  // Bumped by every message and every loss of the connection. A lookup whose answer arrives under
  // another epoch than it started in may have read Redis before the change it was told about: its
  // answer is passed on but not remembered.
  let epoch = 0;
  let subscribed = false;
  let connectionLosses = 0;
  let closed = false;

  function forgetAll() {
    epoch += 1;
    answers.clear();
  }

  const onMessage = (from: string) => {
    if (from === channel) forgetAll();
  };
  const onConnectionLost = () => {
    connectionLosses += 1;
    subscribed = false;
    forgetAll();
  };
  // ioredis re-subscribes by itself after reconnecting, but emits 'ready' before Redis has confirmed
  // that. Subscribing again (harmless) and waiting for its reply tells when messages flow again.
  const onReady = () => {
    void subscribe();
  };

  async function subscribe() {
    const losses = connectionLosses;
    try {
      await subscriber.subscribe(channel);
    } catch {
      return; // The connection dropped again; its next 'ready' tries again.
    }
    if (!closed && losses === connectionLosses && subscriber.status === 'ready') subscribed = true;
  }

  subscriber.on('message', onMessage);
  subscriber.on('close', onConnectionLost);
  subscriber.on('end', onConnectionLost);
  subscriber.on('reconnecting', onConnectionLost);
  subscriber.on('ready', onReady);
  await subscribe();

  async function lookUp(cacheKey: string, fetch: () => Promise<StoredCredential | undefined>): Promise<StoredCredential | undefined> {
    if (!subscribed) return fetch();
    const now = Date.now();
    const cached = answers.get(cacheKey);
    if (cached) {
      if (cached.expires > now) return cached.record;
      answers.delete(cacheKey);
    }
    const startedIn = epoch;
    const record = await fetch();
    // Callers share the remembered object: freezing it keeps one caller from changing another's.
    if (record) Object.freeze(Object.freeze(record).choreos);
    if (subscribed && epoch === startedIn) {
      // Entries all live ttlMs, so the first in the Map is the one closest to expiring.
      const oldest = answers.keys().next();
      if (answers.size >= maxEntries && !oldest.done) answers.delete(oldest.value);
      answers.set(cacheKey, { record, expires: now + ttlMs });
    }
    return record;
  }

  async function thenForgetAll<T>(write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      forgetAll();
    }
  }

  return {
    ...store,
    putUser: (...args) => thenForgetAll(store.putUser(...args)),
    putApp: (...args) => thenForgetAll(store.putApp(...args)),
    issueAppKey: (...args) => thenForgetAll(store.issueAppKey(...args)),
    revokeCredential: (...args) => thenForgetAll(store.revokeCredential(...args)),
    revokeOperator: (...args) => thenForgetAll(store.revokeOperator(...args)),
    putOperator: (...args) => thenForgetAll(store.putOperator(...args)),

    getCredential(account: string, kind: CredentialKind, name: string) {
      // The account's length makes the key unambiguous whatever the names contain.
      return lookUp(`${kind}:${account.length}:${account}:${name}`, () => store.getCredential(account, kind, name));
    },

    getOperator(name: string) {
      return lookUp(`operator:${name}`, () => store.getOperator(name));
    },

    async close() {
      closed = true;
      subscribed = false;
      forgetAll();
      subscriber.off('message', onMessage);
      subscriber.off('close', onConnectionLost);
      subscriber.off('end', onConnectionLost);
      subscriber.off('reconnecting', onConnectionLost);
      subscriber.off('ready', onReady);
      await subscriber.unsubscribe(channel).catch(() => {});
    },
  };
}
