import { createKeySpace, createRedisConnection, waitUntilReady } from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, waitFor, must } from '@ces/testing';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccountStore, type AccountStore, type StoredCredential } from './account-store.ts';
import { createCachedAccountStore, type CachedAccountStore } from './credential-cache.ts';

// The API's in-process credential cache against a real Redis: what it serves without asking, and
// how every change made through the store — by this process or another — reaches it.
describe('credential cache', () => {
  const keys = createKeySpace(isolatedPrefix('creds'));
  const ACCOUNT = 'acme';
  const KEY = 'k'.repeat(40);
  const opened: Redis[] = [];
  const caches: CachedAccountStore[] = [];
  let redis: Redis;
  let subscriber: Redis;
  /** The plain store on a connection of its own, like the admin command line in another process. */
  let admin: AccountStore;
  let counter = 0;

  async function connect(role: 'request' | 'subscriber', name?: string) {
    const connection = createRedisConnection(inject('redisUrl'), role, name);
    opened.push(connection);
    await waitUntilReady(connection);
    return connection;
  }

  async function cached(options: { store?: AccountStore; subscriber?: Redis; ttlMs?: number; maxEntries?: number } = {}) {
    const cache = await createCachedAccountStore({
      store: options.store ?? createAccountStore({ redis, keys }),
      subscriber: options.subscriber ?? subscriber,
      keys,
      ttlMs: options.ttlMs ?? 60_000,
      maxEntries: options.maxEntries,
    });
    caches.push(cache);
    return cache;
  }

  /** A fresh application name with a key, written through the store. */
  async function newApp() {
    counter += 1;
    const name = `app-${counter}`;
    await admin.putApp(ACCOUNT, name, KEY, ['/Library/**']);
    return name;
  }

  const deleteByHand = (name: string) => redis.hdel(keys.accountApps(ACCOUNT), name);

  beforeAll(async () => {
    redis = await connect('request');
    subscriber = await connect('subscriber');
    admin = createAccountStore({ redis: await connect('request'), keys });
    await admin.createAccount(ACCOUNT);
  });

  afterEach(async () => {
    await Promise.all(caches.splice(0).map((cache) => cache.close()));
  });

  afterAll(async () => {
    await deleteKeysWithPrefix(redis, keys.prefix);
    for (const connection of opened) connection.disconnect();
  });

  it('serves a remembered record without Redis, until its time is up', async () => {
    const app = await newApp();
    // Long enough that a busy machine still asks again within it, short enough to wait out.
    const cache = await cached({ ttlMs: 2_000 });
    const record = await cache.getCredential(ACCOUNT, 'app', app);
    expect(record).toMatchObject({ choreos: ['/Library/**'] });

    // Deleted behind the store's back: no message, so only the TTL ends the stale answer.
    await deleteByHand(app);
    expect(await admin.getCredential(ACCOUNT, 'app', app)).toBeUndefined();
    expect(await cache.getCredential(ACCOUNT, 'app', app)).toEqual(record);
    await waitFor(async () => (await cache.getCredential(ACCOUNT, 'app', app)) === undefined, {
      timeoutMs: 10_000,
      what: 'the remembered record to expire',
    });
  });

  it('sees a revocation made elsewhere through the store as soon as its message arrives', async () => {
    const app = await newApp();
    const cache = await cached();
    expect(await cache.getCredential(ACCOUNT, 'app', app)).toBeDefined();
    expect(await admin.revokeCredential(ACCOUNT, 'app', app)).toBe(true);
    await waitFor(async () => (await cache.getCredential(ACCOUNT, 'app', app)) === undefined, {
      timeoutMs: 2_000,
      what: 'the revocation to reach the cache',
    });
  });

  it('sees a re-issued key, a new user and a new operator made elsewhere', async () => {
    const app = await newApp();
    const cache = await cached();
    const before = await cache.getCredential(ACCOUNT, 'app', app);
    await admin.issueAppKey(ACCOUNT, app);
    const after = await waitFor(
      async () => {
        const record = await cache.getCredential(ACCOUNT, 'app', app);
        return record?.secretHash !== before?.secretHash && record;
      },
      { timeoutMs: 2_000, what: 'the new key to reach the cache' },
    );
    expect(after.choreos).toEqual(['/Library/**']);

    // Absences are remembered too, and a creation is announced like any change.
    expect(await cache.getCredential(ACCOUNT, 'user', app)).toBeUndefined();
    expect(await cache.getOperator(`op-${app}`)).toBeUndefined();
    await admin.putUser(ACCOUNT, app, 'a password of some length', []);
    await admin.putOperator(`op-${app}`, 'another password');
    await waitFor(async () => (await cache.getCredential(ACCOUNT, 'user', app)) !== undefined, { timeoutMs: 2_000, what: 'the new user' });
    await waitFor(async () => (await cache.getOperator(`op-${app}`)) !== undefined, { timeoutMs: 2_000, what: 'the new operator' });
  });

  it('sees its own writes at once, before their message arrives', async () => {
    const app = await newApp();
    const cache = await cached();
    expect(await cache.getCredential(ACCOUNT, 'app', app)).toBeDefined();
    expect(await cache.revokeCredential(ACCOUNT, 'app', app)).toBe(true);
    expect(await cache.getCredential(ACCOUNT, 'app', app)).toBeUndefined();
  });

  it('does not remember an answer read before a change it has been told about', async () => {
    const app = await newApp();
    let readRedis!: () => void;
    let release!: () => void;
    const hasRead = new Promise<void>((resolve) => (readRedis = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const plain = createAccountStore({ redis, keys });
    let slowOnce = true;
    // The store's answer is held back after Redis has given it, so the change lands in between.
    const slowStore: AccountStore = {
      ...plain,
      async getCredential(...args) {
        const record = await plain.getCredential(...args);
        if (slowOnce) {
          slowOnce = false;
          readRedis();
          await released;
        }
        return record;
      },
    };
    const cache = await cached({ store: slowStore });

    const inFlight = cache.getCredential(ACCOUNT, 'app', app);
    await hasRead;
    const announced = new Promise<void>((resolve) => {
      // Registered after the cache's own listener, so it runs after the cache has handled the message.
      const onMessage = (channel: string) => {
        if (channel !== keys.credentialsChangedChannel()) return;
        subscriber.off('message', onMessage);
        resolve();
      };
      subscriber.on('message', onMessage);
    });
    await admin.revokeCredential(ACCOUNT, 'app', app);
    await announced;
    release();

    // The held-back answer is what Redis said when asked; it must not outlive the revocation.
    expect(await inFlight).toBeDefined();
    expect(await cache.getCredential(ACCOUNT, 'app', app)).toBeUndefined();
  });

  it('asks Redis every time once its subscriber has disconnected', async () => {
    const ownSubscriber = await connect('subscriber');
    const app = await newApp();
    const cache = await cached({ subscriber: ownSubscriber });
    expect(await cache.getCredential(ACCOUNT, 'app', app)).toBeDefined();
    await deleteByHand(app);
    expect(await cache.getCredential(ACCOUNT, 'app', app)).toBeDefined();

    const ended = new Promise((resolve) => ownSubscriber.once('end', resolve));
    ownSubscriber.disconnect();
    await ended;
    expect(await cache.getCredential(ACCOUNT, 'app', app)).toBeUndefined();
    await admin.putApp(ACCOUNT, app, KEY, []);
    expect(await cache.getCredential(ACCOUNT, 'app', app)).toBeDefined();
    await deleteByHand(app);
    expect(await cache.getCredential(ACCOUNT, 'app', app)).toBeUndefined();
  });

  it('remembers again once its subscriber has reconnected and subscribed again', async () => {
    const connectionName = `creds-cache-test-${counter}`;
    const ownSubscriber = await connect('subscriber', connectionName);
    const cache = await cached({ subscriber: ownSubscriber });
    const app = await newApp();
    const record = await admin.getCredential(ACCOUNT, 'app', app);
    expect(await cache.getCredential(ACCOUNT, 'app', app)).toEqual(record);
    await deleteByHand(app);

    // Redis drops the connection: ioredis notices, reconnects and subscribes again by itself. What
    // was remembered is forgotten, since a message may have been lost meanwhile.
    const clients = String(await redis.client('LIST'));
    const id = clients
      .split('\n')
      .find((line) => line.includes(` name=${connectionName} `))
      ?.match(/^id=(\d+)/)?.[1];
    expect(id).toBeDefined();
    const lost = new Promise((resolve) => ownSubscriber.once('close', resolve));
    await redis.client('KILL', 'ID', must(id));
    await lost;
    expect(await cache.getCredential(ACCOUNT, 'app', app)).toBeUndefined();

    // Remembering again: a record deleted by hand, unannounced, is still served. Each try uses a new
    // name, because once the cache is back it may rightly remember an earlier try's absence.
    let tries = 0;
    const remembered = await waitFor(
      async () => {
        tries += 1;
        const name = `${app}-try-${tries}`;
        await redis.hset(keys.accountApps(ACCOUNT), name, JSON.stringify(record));
        await cache.getCredential(ACCOUNT, 'app', name);
        await deleteByHand(name);
        return (await cache.getCredential(ACCOUNT, 'app', name)) !== undefined && name;
      },
      { what: 'the cache to remember again' },
    );
    // And listening again: a revocation through the store clears it.
    await admin.revokeCredential(ACCOUNT, 'app', remembered);
    await waitFor(async () => (await cache.getCredential(ACCOUNT, 'app', remembered)) === undefined, {
      timeoutMs: 2_000,
      what: 'the revocation after the reconnection',
    });
  });

  it('keeps at most maxEntries answers, forgetting the oldest', async () => {
    const apps = [await newApp(), await newApp(), await newApp()];
    const cache = await cached({ maxEntries: 2 });
    const records: (StoredCredential | undefined)[] = [];
    for (const app of apps) records.push(await cache.getCredential(ACCOUNT, 'app', app));
    for (const app of apps) await deleteByHand(app);
    expect(await cache.getCredential(ACCOUNT, 'app', must(apps[2]))).toEqual(records[2]);
    expect(await cache.getCredential(ACCOUNT, 'app', must(apps[1]))).toEqual(records[1]);
    expect(await cache.getCredential(ACCOUNT, 'app', must(apps[0]))).toBeUndefined();
  });

  it('asks Redis every time once closed, and stops listening', async () => {
    const app = await newApp();
    const cache = await cached();
    await cache.getCredential(ACCOUNT, 'app', app);
    await cache.close();
    await deleteByHand(app);
    expect(await cache.getCredential(ACCOUNT, 'app', app)).toBeUndefined();
    expect(subscriber.listenerCount('message')).toBe(caches.length - 1);
  });

  it('publishes every change in the transaction that makes it', async () => {
    const listener = await connect('subscriber');
    const messages: string[] = [];
    listener.on('message', (_channel: string, message: string) => messages.push(message));
    await listener.subscribe(keys.credentialsChangedChannel());
    const app = await newApp();
    await admin.issueAppKey(ACCOUNT, app);
    await admin.revokeCredential(ACCOUNT, 'app', app);
    await admin.putUser(ACCOUNT, 'carol', 'a password of some length', []);
    await admin.putOperator('oncall', 'another password');
    const apps = keys.accountApps(ACCOUNT);
    await waitFor(() => messages.length === 5, { timeoutMs: 2_000, what: 'five messages' });
    expect(messages).toEqual([`${apps}\n${app}`, `${apps}\n${app}`, `${apps}\n${app}`, `${keys.accountUsers(ACCOUNT)}\ncarol`, `${keys.operators()}\noncall`]);
  });
});
