import { hash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { decodeExecution, type ExecutionRecord, type ExecutionSummary, fieldsToObject, RECORD_FIELDS, SUMMARY_FIELDS } from './execution-record.ts';
import type { KeySpace } from './keys.ts';
import { registerScripts } from './scripts.ts';
import { createTurnBatcher } from './turn-batches.ts';
import type { WebhookEventType } from './webhook-store.ts';

/** A run's start or end, put in the outbox atomically with it (webhook-outbox.lua). */
export interface WebhookEvent {
  /** The outbox's member, to settle it by once its deliveries exist. */
  member: string;
  kind: 'start' | 'end';
  account: string;
  executionId: string;
}

/** What a run's deliveries read of its record: the status resource's fields and outputs, whether it took sealed inputs, its own call-back. */
export type WebhookRecord = ExecutionSummary & Pick<ExecutionRecord, 'sealedInputs' | 'notifyUrl'>;

/** An event claimed, with its run's record as its deliveries need it (undefined once the record expired). */
export interface ClaimedWebhookEvent extends WebhookEvent {
  record: WebhookRecord | undefined;
  /** Claimed before by a dispatcher that did not settle it: its deliveries may exist, sent or not. */
  claimedBefore: boolean;
}

const F = RECORD_FIELDS;
// A body is the status resource's execution object and outputs, read as a status answer with its
// outputs reads them; and what keeps secret outputs out of it and sends a run's own call-back.
const WEBHOOK_RECORD_FIELDS = [...SUMMARY_FIELDS, F.output, F.sealedInputs, F.notifyUrl];

export type DeliveryState = 'pending' | 'delivered' | 'dead';

export interface NewDelivery {
  id: string;
  account: string;
  /** The subscription's name, or NOTIFY_WEBHOOK for a run's own call-back. */
  webhook: string;
  executionId: string;
  type: WebhookEventType;
  url: string;
  /** The JSON body, the same on every attempt. */
  body: string;
}

export interface Delivery extends NewDelivery {
  created: number;
  /** When its current round began (its creation, or its last redelivery): its retries end a span after. */
  since: number;
  state: DeliveryState;
  /** Bumped by each redelivery: a job of an earlier round records nothing. */
  round: number;
  attempts: number;
  lastStatus?: number;
  lastError?: string;
  lastAttempt?: number;
  nextAttempt?: number;
  deliveredAt?: number;
}

export interface DeliveryAttempt {
  round: number;
  now: number;
  /** The endpoint's status; 0 when no answer came. */
  status: number;
  error: string;
  outcome: 'delivered' | 'retry' | 'dead' | 'gone';
  nextAttempt?: number;
}

/** A delivery's first attempt, made before it was opened (the dispatcher sends first, then opens it with this). */
export type FirstAttempt = Omit<DeliveryAttempt, 'round'>;

/** Most events one claim takes: the claim's script leases them in one command of twice as many arguments. */
const MOST_CLAIMED = 1_000;

export interface WebhookDeliveries {
  /** Leases up to `limit` events of the outbox for `leaseMs`, oldest first, each with its run's record read in the same call. */
  claimEvents(now: number, leaseMs: number, limit: number): Promise<ClaimedWebhookEvent[]>;
  /** Takes events out of the outbox, each once every delivery it makes exists: one command for them all. */
  settleEvents(events: readonly WebhookEvent[]): Promise<void>;
  /** Events in the outbox (claimed or not), for metrics and tests. */
  countEvents(): Promise<number>;
  /**
   * Opens a delivery unless it exists: true when this call opened it, with its first attempt when
   * one was made (else pending, due at `now`). Those asked in one turn go in one script call.
   */
  open(delivery: NewDelivery, now: number, first?: FirstAttempt): Promise<boolean>;
  get(id: string): Promise<Delivery | undefined>;
  /** A subscription's recent deliveries, newest first. */
  recent(account: string, webhook: string, limit: number): Promise<Delivery[]>;
  /** Records an attempt, unless the delivery is final or in another round: whether it did. Those of one turn go in one script call. */
  recordAttempt(delivery: Pick<Delivery, 'id' | 'account'>, attempt: DeliveryAttempt): Promise<boolean>;
  /** A new round, sent again with the same id: its number, or 0 when there is no such delivery. */
  redeliver(id: string, now: number): Promise<number>;
}

/**
 * A delivery's identity, which makes a repeat harmless: one per subscription, run and kind of
 * event. It is the `webhook-id` of every attempt.
 */
export function webhookDeliveryId(account: string, webhook: string, executionId: string, kind: WebhookEvent['kind']): string {
  // One-shot: a hash object per delivery cost three times as much.
  return `msg_${hash('sha256', `${account}\n${webhook}\n${executionId}\n${kind}`, 'hex').slice(0, 32)}`;
}

export const DELIVERY_ID = /^msg_[0-9a-f]{32}$/;

const optionalNumber = (text: string | undefined) => (text === undefined || text === '' ? undefined : Number(text));

function decode(id: string, hash: Record<string, string>): Delivery | undefined {
  if (!hash.state) return undefined;
  const lastStatus = optionalNumber(hash.laststatus);
  const lastAttempt = optionalNumber(hash.lastattempt);
  const nextAttempt = optionalNumber(hash.nextattempt);
  const deliveredAt = optionalNumber(hash.deliveredat);
  return {
    id,
    account: hash.account ?? '',
    webhook: hash.webhook ?? '',
    executionId: hash.execution ?? '',
    type: hash.type as WebhookEventType,
    url: hash.url ?? '',
    body: hash.body ?? '',
    created: Number(hash.created ?? 0),
    since: Number(hash.since ?? hash.created ?? 0),
    state: hash.state as DeliveryState,
    round: Number(hash.round ?? 0),
    attempts: Number(hash.attempts ?? 0),
    ...(lastStatus !== undefined ? { lastStatus } : {}),
    ...(hash.lasterror ? { lastError: hash.lasterror } : {}),
    ...(lastAttempt !== undefined ? { lastAttempt } : {}),
    ...(nextAttempt !== undefined ? { nextAttempt } : {}),
    ...(deliveredAt !== undefined ? { deliveredAt } : {}),
  };
}

/** Webhook deliveries in Redis: the outbox of runs' events, one hash per delivery, a recent list per subscription. */
export function createWebhookDeliveries(deps: {
  redis: Redis;
  keys: KeySpace;
  /** How long a delivery's record is kept: longer than its retries last. */
  retentionSeconds: number;
  /** Most deliveries a subscription lists. */
  recentPerWebhook?: number;
  /**
   * The key space of the shard whose outbox these claim, settle and count (shard-layout.ts): a
   * run's event is queued in its shard's slot, with its status; the deliveries are `keys`'.
   */
  outbox?: KeySpace;
}): WebhookDeliveries {
  const { redis, keys } = deps;
  const outbox = deps.outbox ?? keys;
  const run = registerScripts(redis);
  const recentPerWebhook = deps.recentPerWebhook ?? 100;
  const get = async (id: string) => decode(id, await redis.hgetall(keys.webhookDelivery(id)));
  // The deliveries of the events claimed together are opened in one call, and the attempts that
  // end in one turn recorded in one: a delivery's writes cost a share of a round trip and script run.
  const open = createTurnBatcher(async (items: { delivery: NewDelivery; now: number; first: FirstAttempt | undefined }[]) => {
    const args = items.flatMap(({ delivery, now, first }) => [
      keys.webhookDelivery(delivery.id),
      keys.webhookDeliveries(delivery.account, delivery.webhook),
      keys.accountWebhooks(delivery.account),
      delivery.id,
      String(now),
      delivery.account,
      delivery.webhook,
      delivery.executionId,
      delivery.type,
      delivery.url,
      delivery.body,
      first?.outcome ?? '',
      String(first?.now ?? ''),
      String(first?.status ?? ''),
      first?.error ?? '',
      String(first?.nextAttempt ?? ''),
    ]);
    const replies = (await run('openWebhookDeliveries', [keys.webhookOutbox()], [deps.retentionSeconds, recentPerWebhook, items.length, ...args])) as number[];
    return replies.map((reply) => reply === 1);
  });
  const recordAttempt = createTurnBatcher(async (items: { delivery: Pick<Delivery, 'id' | 'account'>; attempt: DeliveryAttempt }[]) => {
    const args = items.flatMap(({ delivery, attempt }) => [
      keys.webhookDelivery(delivery.id),
      keys.accountWebhooks(delivery.account),
      String(attempt.round),
      String(attempt.now),
      String(attempt.status),
      attempt.error,
      attempt.outcome,
      String(attempt.nextAttempt ?? ''),
    ]);
    const replies = (await run('recordWebhookAttempts', [keys.webhookOutbox()], [items.length, ...args])) as number[];
    return replies.map((reply) => reply === 1);
  });

  return {
    async claimEvents(now, leaseMs, limit) {
      const most = Math.min(limit, MOST_CLAIMED);
      const reply = (await run('claimWebhookEvents', [outbox.webhookOutbox()], [now, leaseMs, most, outbox.execution(''), ...WEBHOOK_RECORD_FIELDS])) as (
        | string
        | number
        | (string | null)[]
      )[];
      const events: ClaimedWebhookEvent[] = [];
      for (let at = 0; at + 2 < reply.length; at += 3) {
        const member = reply[at] as string;
        const [kind = '', account = '', executionId = ''] = member.split('\n');
        const record = decodeExecution(fieldsToObject(WEBHOOK_RECORD_FIELDS, reply[at + 2] as (string | null)[]));
        events.push({ member, kind: kind as WebhookEvent['kind'], account, executionId, record, claimedBefore: reply[at + 1] === 1 });
      }
      return events;
    },

    async settleEvents(events) {
      if (events.length > 0) await redis.zrem(outbox.webhookOutbox(), ...events.map((event) => event.member));
    },

    countEvents: () => redis.zcard(outbox.webhookOutbox()),

    open: (delivery, now, first) => open({ delivery, now, first }),

    get,

    async recent(account, webhook, limit) {
      const ids = await redis.zrevrange(keys.webhookDeliveries(account, webhook), 0, limit - 1);
      const found = await Promise.all(ids.map(get));
      return found.filter((delivery): delivery is Delivery => delivery !== undefined);
    },

    recordAttempt: (delivery, attempt) => recordAttempt({ delivery, attempt }),

    async redeliver(id, now) {
      return Number(await run('redeliverWebhook', [keys.webhookDelivery(id)], [now]));
    },
  };
}
