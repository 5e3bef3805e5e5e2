import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { KeySpace } from './keys.ts';
import type { StoreCrashSeamHook } from './store-crash-seam.ts';
import type { ShardLayout } from './shard-layout.ts';
import { registerScripts } from './scripts.ts';
import type { SecretCipher } from './secret-cipher.ts';

export const WEBHOOK_EVENT_TYPES = ['execution.started', 'execution.ended', 'execution.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The name under which an account keeps its notify secret, for runs that name their own call-back. */
export const NOTIFY_WEBHOOK = 'notify';

/** How long a rotated secret still signs, beside the new one, so receivers can switch over. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** What a subscription's owner writes. */
export interface WebhookSpec {
  url: string;
  events: WebhookEventType[];
  /** Choreo patterns of the runs it wants; absent: every run the account's writer may see. */
  choreos?: string[];
}

/** What may be shown of a subscription: never its secrets. */
export interface WebhookDescription extends WebhookSpec {
  name: string;
  /** The Choreo patterns of the credential that wrote it: it is sent no run its writer could not see. */
  within: string[];
  created: number;
  updated: number;
  /** Set when the endpoint answered 410: nothing more is sent until the subscription is written again. */
  disabled?: { at: number; reason: string };
  /** While a rotated secret still signs: until when. */
  previousSecretUntil?: number;
}

interface StoredWebhook extends Omit<WebhookDescription, 'name' | 'disabled' | 'previousSecretUntil'> {
  secret: string;
  previous?: string;
  /** Epoch ms, as text: the Lua that disables a subscription re-encodes it, and keeps text exact. */
  previousuntil?: string;
  disabled?: { at: string | number; reason: string };
}

/** What a delivery needs to be sent: the subscription (none for NOTIFY_WEBHOOK) and the secrets that sign now, current first. */
export interface SigningTarget {
  webhook?: WebhookDescription;
  secrets: string[];
}

export type PutWebhookResult =
  | { outcome: 'created'; webhook: WebhookDescription; secret: string }
  | { outcome: 'replaced'; webhook: WebhookDescription }
  | { outcome: 'too-many' };

export interface WebhookStore {
  /** Creates (with a new secret) or replaces (keeping its secrets, enabled again) a subscription. */
  put(account: string, name: string, spec: WebhookSpec, within: readonly string[]): Promise<PutWebhookResult>;
  get(account: string, name: string): Promise<WebhookDescription | undefined>;
  /** Sorted by name. */
  list(account: string): Promise<WebhookDescription[]>;
  delete(account: string, name: string): Promise<boolean>;
  /** A new secret; the one it replaces signs beside it for SECRET_OVERLAP_MS. Undefined: no such subscription. */
  rotateSecret(account: string, name: string): Promise<string | undefined>;
  /**
   * What a delivery to `name` needs, in one read: the subscription (none for NOTIFY_WEBHOOK) and the
   * secrets that sign now, current first. Undefined when it is gone.
   */
  signingTarget(account: string, name: string): Promise<SigningTarget | undefined>;
  /** Every subscription of the account with its signing secrets, in one read, sorted by name. */
  signingTargets(account: string): Promise<(SigningTarget & { webhook: WebhookDescription })[]>;
  /** Creates the notify secret: the new secret, or undefined when the account has one already. */
  createNotifySecret(account: string): Promise<string | undefined>;
  /** Whether the account has a notify secret, and until when a rotated one still signs. */
  notifySecret(account: string): Promise<{ created: number; previousSecretUntil?: number } | undefined>;
  rotateNotifySecret(account: string): Promise<string | undefined>;
  deleteNotifySecret(account: string): Promise<boolean>;
  /** Seals again under the current key every secret of the account sealed with a previous one; returns how many webhooks (and notify) it changed. */
  reseal(account: string): Promise<number>;
}

/** `whsec_` and the key in Base64, as the Standard Webhooks libraries read it. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** Opened secrets a process keeps, so that a busy webhook's deliveries do not each decrypt its secret. */
const MAX_SECRETS_REMEMBERED = 10_000;

/** Bound to its account and subscription: a sealed secret copied elsewhere does not open. */
const secretContext = (account: string, name: string) => `webhook\0${account}\0${name}`;

interface StoredNotify {
  secret: string;
  previous?: string;
  previousuntil?: string;
  created: string;
}

export function createWebhookStore(deps: {
  redis: Redis;
  keys: KeySpace;
  cipher: SecretCipher;
  maxWebhooksPerAccount: number;
  /**
   * Where runs live (shard-layout.ts): each shard but the control slot's keeps a copy of an
   * account's counts per event type for its runs' scripts, written after every change.
   */
  layout?: ShardLayout;
  now?: () => number;
  /** Tests only: holds the process between a subscription's write and its copies (store-crash-seam.ts). */
  atSeam?: StoreCrashSeamHook;
}): WebhookStore {
  const { redis, keys, cipher } = deps;
  const now = deps.now ?? Date.now;
  const run = registerScripts(redis);
  // A change answered is copied to every shard there is now: one that fails to copy fails the
  // request, which the caller sends again.
  const mirror = async (account: string) => {
    const layout = deps.layout;
    if (!layout?.grows) return;
    await deps.atSeam?.('subscription-written', account);
    await layout.refresh();
    await mirrorWebhookEvents(redis, layout, account);
  };

  const describe = (name: string, stored: StoredWebhook): WebhookDescription => {
    const until = Number(stored.previousuntil ?? 0);
    return {
      name,
      url: stored.url,
      events: stored.events,
      ...(stored.choreos ? { choreos: stored.choreos } : {}),
      within: stored.within,
      created: stored.created,
      updated: stored.updated,
      ...(stored.disabled ? { disabled: { at: Number(stored.disabled.at), reason: stored.disabled.reason } } : {}),
      ...(stored.previous && until > now() ? { previousSecretUntil: until } : {}),
    };
  };
  const stored = async (account: string, name: string) => {
    const json = await redis.hget(keys.accountWebhooks(account), name);
    return json === null ? undefined : (JSON.parse(json) as StoredWebhook);
  };
  const write = (account: string, name: string, webhook: StoredWebhook, onlyExisting: boolean) =>
    run(
      'putWebhook',
      [keys.accountWebhooks(account), keys.accountWebhookEvents(account)],
      [name, JSON.stringify(webhook), onlyExisting ? 0 : deps.maxWebhooksPerAccount, onlyExisting ? 1 : 0],
    );
  // Every delivery is signed: its secrets are opened once per sealed value, not once per delivery.
  const openedSecrets = new Map<string, string>();
  const open = (sealed: string, context: string) => {
    const key = `${context}\n${sealed}`;
    let plain = openedSecrets.get(key);
    if (plain === undefined) {
      plain = cipher.open(sealed, context);
      if (openedSecrets.size >= MAX_SECRETS_REMEMBERED) openedSecrets.clear();
      openedSecrets.set(key, plain);
    }
    return plain;
  };
  const opened = (account: string, name: string, secrets: { secret: string; previous?: string; previousuntil?: string }) => {
    const context = secretContext(account, name);
    const current = open(secrets.secret, context);
    const overlapping = secrets.previous !== undefined && Number(secrets.previousuntil ?? 0) > now();
    return overlapping && secrets.previous ? [current, open(secrets.previous, context)] : [current];
  };
  const rotated = <T extends { secret: string; previous?: string; previousuntil?: string }>(account: string, name: string, secrets: T) => {
    const secret = generateWebhookSecret();
    return {
      secret,
      next: {
        ...secrets,
        secret: cipher.seal(secret, secretContext(account, name)),
        previous: secrets.secret,
        previousuntil: String(now() + SECRET_OVERLAP_MS),
      },
    };
  };

  return {
    async put(account, name, spec, within) {
      const earlier = await stored(account, name);
      const at = now();
      const secret = earlier ? undefined : generateWebhookSecret();
      const webhook: StoredWebhook = {
        url: spec.url,
        events: [...new Set(spec.events)],
        ...(spec.choreos && spec.choreos.length > 0 ? { choreos: spec.choreos } : {}),
        within: [...within],
        created: earlier?.created ?? at,
        updated: at,
        secret: earlier?.secret ?? cipher.seal(secret as string, secretContext(account, name)),
        ...(earlier?.previous ? { previous: earlier.previous, ...(earlier.previousuntil ? { previousuntil: earlier.previousuntil } : {}) } : {}),
      };
      const reply = await write(account, name, webhook, false);
      await mirror(account);
      if (reply === -1) return { outcome: 'too-many' };
      // A subscription written between the read and the script keeps its own secret: answering
      // a secret that was not stored would leave its owner unable to verify anything.
      if (reply === 1 && secret !== undefined) return { outcome: 'created', webhook: describe(name, webhook), secret };
      const written = await stored(account, name);
      return { outcome: 'replaced', webhook: describe(name, written ?? webhook) };
    },

    async get(account, name) {
      const found = await stored(account, name);
      return found ? describe(name, found) : undefined;
    },

    async list(account) {
      const all = await redis.hgetall(keys.accountWebhooks(account));
      return Object.keys(all)
        .sort()
        .map((name) => describe(name, JSON.parse(all[name] as string) as StoredWebhook));
    },

    async delete(account, name) {
      const deleted = (await run('deleteWebhook', [keys.accountWebhooks(account), keys.accountWebhookEvents(account)], [name])) === 1;
      await mirror(account);
      return deleted;
    },

    async rotateSecret(account, name) {
      const found = await stored(account, name);
      if (!found) return undefined;
      const { secret, next } = rotated(account, name, found);
      return (await write(account, name, next, true)) === 0 ? secret : undefined;
    },

    async signingTarget(account, name) {
      if (name === NOTIFY_WEBHOOK) {
        const notify = (await redis.hgetall(keys.accountWebhookNotify(account))) as Partial<StoredNotify>;
        return notify.secret ? { secrets: opened(account, NOTIFY_WEBHOOK, notify as StoredNotify) } : undefined;
      }
      const found = await stored(account, name);
      return found ? { webhook: describe(name, found), secrets: opened(account, name, found) } : undefined;
    },

    async signingTargets(account) {
      const all = await redis.hgetall(keys.accountWebhooks(account));
      return Object.keys(all)
        .sort()
        .map((name) => {
          const found = JSON.parse(all[name] as string) as StoredWebhook;
          return { webhook: describe(name, found), secrets: opened(account, name, found) };
        });
    },

    async createNotifySecret(account) {
      const secret = generateWebhookSecret();
      const created = await redis.hsetnx(keys.accountWebhookNotify(account), 'secret', cipher.seal(secret, secretContext(account, NOTIFY_WEBHOOK)));
      if (created !== 1) return undefined;
      await redis.hset(keys.accountWebhookNotify(account), 'created', String(now()));
      return secret;
    },

    async notifySecret(account) {
      const notify = (await redis.hgetall(keys.accountWebhookNotify(account))) as Partial<StoredNotify>;
      if (!notify.secret) return undefined;
      const until = Number(notify.previousuntil ?? 0);
      return { created: Number(notify.created ?? 0), ...(notify.previous && until > now() ? { previousSecretUntil: until } : {}) };
    },

    async rotateNotifySecret(account) {
      const key = keys.accountWebhookNotify(account);
      const notify = (await redis.hgetall(key)) as Partial<StoredNotify>;
      if (!notify.secret) return undefined;
      const { secret, next } = rotated(account, NOTIFY_WEBHOOK, notify as StoredNotify);
      await redis.hset(key, { secret: next.secret, previous: next.previous, previousuntil: next.previousuntil });
      return secret;
    },

    async deleteNotifySecret(account) {
      return (await redis.del(keys.accountWebhookNotify(account))) === 1;
    },

    async reseal(account) {
      const renew = (sealed: string | undefined, context: string) =>
        sealed !== undefined && cipher.sealedWithOldKey(sealed) ? cipher.seal(cipher.open(sealed, context), context) : sealed;
      let resealed = 0;
      const all = await redis.hgetall(keys.accountWebhooks(account));
      for (const [name, json] of Object.entries(all)) {
        const webhook = JSON.parse(json) as StoredWebhook;
        if (!cipher.sealedWithOldKey(webhook.secret) && !(webhook.previous && cipher.sealedWithOldKey(webhook.previous))) continue;
        const context = secretContext(account, name);
        const previous = renew(webhook.previous, context);
        const renewed: StoredWebhook = { ...webhook, secret: renew(webhook.secret, context) as string, ...(previous ? { previous } : {}) };
        // Only where it was not written meanwhile: a rotation or a replace keeps what it wrote.
        resealed += Number(await run('resealField', [keys.accountWebhooks(account)], [name, json, JSON.stringify(renewed)]));
      }
      const notifyKey = keys.accountWebhookNotify(account);
      const notify = (await redis.hgetall(notifyKey)) as Partial<StoredNotify>;
      const context = secretContext(account, NOTIFY_WEBHOOK);
      let notifyResealed = 0;
      for (const field of ['secret', 'previous'] as const) {
        const sealed = notify[field];
        if (sealed === undefined || !cipher.sealedWithOldKey(sealed)) continue;
        notifyResealed = Math.max(notifyResealed, Number(await run('resealField', [notifyKey], [field, sealed, renew(sealed, context) as string])));
      }
      return resealed + notifyResealed;
    },
  };
}

/**
 * Copies an account's counts of subscriptions per event type to every shard but the control
 * slot's (mirror-webhook-events.lua), each copy replaced only by a later version.
 */
export async function mirrorWebhookEvents(redis: Redis, layout: ShardLayout, account: string): Promise<void> {
  const others = layout.shards.filter((shard) => shard.index !== 0);
  if (others.length === 0) return;
  const { '~version': version = '0', ...counts } = await redis.hgetall(layout.control.accountWebhookEvents(account));
  const pairs = Object.entries(counts).flat();
  const run = registerScripts(redis);
  await Promise.all(others.map((shard) => run('mirrorWebhookEvents', [shard.keys.accountWebhookEvents(account)], [version, ...pairs])));
}

/** Copies every account's counts to every shard: for shards a deployment has just added. */
export async function mirrorAllWebhookEvents(redis: Redis, layout: ShardLayout): Promise<void> {
  if (layout.shards.length < 2) return;
  for (const account of await redis.smembers(layout.control.accounts())) await mirrorWebhookEvents(redis, layout, account);
}
