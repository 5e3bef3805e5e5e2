import { EgressRefusedError } from '@ces/language';
import type { Logger, WebhookAttemptOutcome } from '@ces/observability';
import {
  type Delivery,
  type DeliveryAttempt,
  type FirstAttempt,
  type NewDelivery,
  NOTIFY_WEBHOOK,
  type SigningTarget,
  type WebhookDeliveries,
  type WebhookStore,
} from '@ces/store';
import { createWebhookSigner } from './webhook-signature.ts';

/** What an endpoint must answer within: a slower one is tried again later. */
export const DELIVERY_TIMEOUT_MS = 15_000;

/** A request unanswered this long counts against its webhook's share of the slots. */
export const SLOW_MS = 1_000;

/** How long a delivery of a slow webhook waits before it is tried again, at most (jittered). */
export const SLOW_DELAY_MS = 5_000;

/** How long a delivery of a webhook with its most requests in flight (all quick) waits, at most. */
export const FULL_DELAY_MS = 200;

export type PostWebhook = (url: string, request: { headers: Record<string, string>; body: string; timeoutMs: number }) => Promise<{ status: number }>;

export interface WebhookRetryPolicy {
  /** The first delay; each after it doubles. */
  initialMs: number;
  /** How long after its round began a delivery is tried at most; then it is dead. */
  maxSeconds: number;
}

/**
 * - `done`: nothing more to send in this round (delivered, dead, or no longer this job's);
 * - `retry`: recorded as failed, to be sent again at `at`;
 * - `busy`: not sent, its subscription has its most deliveries in flight here; try again at `at`.
 */
export type SendOutcome = { kind: 'done' } | { kind: 'retry'; at: number } | { kind: 'busy'; at: number };

export interface WebhookSender {
  /** A round of a delivery, as its job asks: read, then sent when it is pending in that round and due. */
  send(deliveryId: string, round: number): Promise<SendOutcome>;
  /**
   * A delivery just opened (at `created`, pending), sent at once by the dispatcher that opened it
   * (no job unless it fails), with its subscription and secrets as the dispatcher read them an
   * instant before (else read here). Past its webhook's most requests in flight it waits up to
   * FULL_DELAY_MS for one to end.
   */
  sendOpened(delivery: NewDelivery, created: number, target?: SigningTarget): Promise<SendOutcome>;
  /**
   * A delivery not yet opened, of an event claimed for the first time: sent as `sendOpened` sends,
   * then opened with that attempt in one write (or pending when it was not sent). `opened` is false
   * when the delivery existed already: what it recorded stays, this attempt is not recorded.
   */
  sendFirst(delivery: NewDelivery, created: number, target?: SigningTarget): Promise<{ opened: boolean; outcome: SendOutcome }>;
}

/** A delivery as opened at `created`, before any attempt. */
const pendingSince = (delivery: NewDelivery, created: number): Delivery => ({
  ...delivery,
  created,
  since: created,
  state: 'pending',
  round: 0,
  attempts: 0,
  nextAttempt: created,
});

/** Writes an attempt's outcome: whether it was recorded (its delivery still pending in its round). */
type AttemptRecorder = (delivery: Delivery, attempt: FirstAttempt) => Promise<boolean>;

/** The delay before attempt `attempts + 1`: `initialMs` doubling, with up to a fifth either way of jitter so retries spread out. */
export function retryDelayMs(initialMs: number, attempts: number, random: () => number = Math.random): number {
  const base = initialMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * Sends one round of a delivery: signed afresh at each attempt (a new `webhook-timestamp`, the
 * same `webhook-id` and body), and the attempt recorded by the delivery's script, which keeps a
 * delivered or dead delivery final. A subscription deleted meanwhile ends its deliveries dead; a
 * disabled one, too.
 */
export function createWebhookSender(deps: {
  webhooks: WebhookStore;
  deliveries: WebhookDeliveries;
  post: PostWebhook;
  retry: WebhookRetryPolicy;
  /**
   * Most deliveries of one subscription this worker sends at once, and a quarter of that (at least
   * one) the most it lets wait longer than SLOW_MS for their answer: past either, its next ones
   * wait among the delayed jobs, so that a slow or dead endpoint holds a few of the worker's slots.
   */
  perWebhook: number;
  logger: Logger;
  /** Told each attempt's outcome, for metrics. */
  onAttempt?: (outcome: WebhookAttemptOutcome) => void;
  now?: () => number;
}): WebhookSender {
  const { webhooks, deliveries, post, retry, logger, now = Date.now } = deps;
  // Per webhook, the start time of each of its requests in flight here, by a number of its own.
  const inFlight = new Map<string, Map<number, number>>();
  let requests = 0;
  const sign = createWebhookSigner();

  const recordAttempt: AttemptRecorder = (delivery, attempt) => deliveries.recordAttempt(delivery, { ...attempt, round: delivery.round });

  async function attempt(delivery: Delivery, known: SigningTarget | undefined, recordWith: AttemptRecorder): Promise<SendOutcome> {
    const record = async (made: Omit<DeliveryAttempt, 'round' | 'now'>) => {
      const recorded = await recordWith(delivery, { ...made, now: now() });
      if (recorded) deps.onAttempt?.(made.outcome);
      return recorded;
    };
    const notify = delivery.webhook === NOTIFY_WEBHOOK;
    const target = known ?? (await webhooks.signingTarget(delivery.account, delivery.webhook));
    const subscription = target?.webhook;
    if (!target) {
      await record({ status: 0, error: notify ? 'the account has no notify secret' : 'the subscription was deleted', outcome: 'dead' });
      return { kind: 'done' };
    }
    if (subscription?.disabled) {
      await record({ status: 0, error: `the subscription is disabled: ${subscription.disabled.reason}`, outcome: 'dead' });
      return { kind: 'done' };
    }
    // A subscription's URL as it is now: an owner who moved the endpoint gets the retries there.
    const url = subscription?.url ?? delivery.url;
    const timestamp = Math.floor(now() / 1000);
    let status = 0;
    let error = '';
    let refused = false;
    try {
      ({ status } = await post(url, {
        headers: {
          'content-type': 'application/json',
          'webhook-id': delivery.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': sign(target.secrets, delivery.id, timestamp, delivery.body),
        },
        body: delivery.body,
        timeoutMs: DELIVERY_TIMEOUT_MS,
      }));
      if (status < 200 || status > 299) error = `the endpoint answered ${status}`;
    } catch (failure) {
      error = (failure as Error).message;
      // The egress policy will refuse it as long as the URL stays: no retry can deliver it.
      refused = failure instanceof EgressRefusedError || (failure as Error).cause instanceof EgressRefusedError;
    }
    if (error === '') {
      await record({ status, error, outcome: 'delivered' });
      return { kind: 'done' };
    }
    if (refused) {
      await record({ status, error, outcome: 'dead' });
      return { kind: 'done' };
    }
    if (status === 410 && !notify) {
      await record({ status, error, outcome: 'gone' });
      return { kind: 'done' };
    }
    const at = now() + retryDelayMs(retry.initialMs, delivery.attempts + 1);
    if (at > delivery.since + retry.maxSeconds * 1000) {
      await record({ status, error, outcome: 'dead' });
      return { kind: 'done' };
    }
    const recorded = await record({ status, error, outcome: 'retry', nextAttempt: at });
    return recorded ? { kind: 'retry', at } : { kind: 'done' };
  }

  // Per webhook, the first attempts waiting for one of its requests in flight to end.
  const waiting = new Map<string, (() => void)[]>();

  const slotFreed = (key: string) => {
    const queue = waiting.get(key);
    const next = queue?.shift();
    if (queue?.length === 0) waiting.delete(key);
    next?.();
  };

  /** Whether one of the webhook's requests ended within `ms`. */
  const slotWithin = (key: string, ms: number) =>
    new Promise<boolean>((resolve) => {
      const queue = waiting.get(key) ?? [];
      waiting.set(key, queue);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const at = queue.indexOf(wake);
        if (at >= 0) queue.splice(at, 1);
        if (queue.length === 0 && waiting.get(key) === queue) waiting.delete(key);
        resolve(false);
      }, ms);
      queue.push(wake);
    });

  /**
   * Sends one attempt, unless its webhook has too many slow requests in flight here, or its most
   * requests in flight for longer than `waitMs`: a first attempt waits here as long as its job
   * would have been delayed, which costs no job when the webhook's requests are quick.
   */
  async function limited(delivery: Delivery, target: SigningTarget | undefined, waitMs: number, recordWith: AttemptRecorder): Promise<SendOutcome> {
    const key = `${delivery.account}\n${delivery.webhook}`;
    const until = now() + waitMs;
    let flying: Map<number, number>;
    let started: number;
    for (;;) {
      started = now();
      flying = inFlight.get(key) ?? new Map<number, number>();
      let slow = 0;
      // In the order they started: the count ends at the first that is not slow.
      for (const at of flying.values()) {
        if (started - at < SLOW_MS) break;
        slow += 1;
      }
      const jittered = (ms: number) => started + Math.round(ms * (0.5 + Math.random() / 2));
      if (slow >= Math.max(1, Math.floor(deps.perWebhook / 4))) return { kind: 'busy', at: jittered(SLOW_DELAY_MS) };
      if (flying.size < deps.perWebhook) break;
      if (started >= until || !(await slotWithin(key, until - started))) return { kind: 'busy', at: jittered(FULL_DELAY_MS) };
    }
    requests += 1;
    const mark = requests;
    flying.set(mark, started);
    inFlight.set(key, flying);
    try {
      return await attempt(delivery, target, recordWith);
    } catch (error) {
      logger.warn({ err: error, deliveryId: delivery.id }, 'webhook delivery attempt not recorded');
      throw error;
    } finally {
      flying.delete(mark);
      if (flying.size === 0) inFlight.delete(key);
      slotFreed(key);
    }
  }

  return {
    async send(deliveryId, round) {
      const delivery = await deliveries.get(deliveryId);
      if (delivery?.state !== 'pending' || delivery.round !== round) return { kind: 'done' };
      // A job early for its attempt (queued again after a dispatcher's crash) waits for it.
      if (delivery.nextAttempt !== undefined && delivery.nextAttempt > now()) return { kind: 'retry', at: delivery.nextAttempt };
      return limited(delivery, undefined, 0, recordAttempt);
    },
    sendOpened: (delivery, created, target) => limited(pendingSince(delivery, created), target, FULL_DELAY_MS, recordAttempt),
    async sendFirst(delivery, created, target) {
      let opened: boolean | undefined;
      const outcome = await limited(pendingSince(delivery, created), target, FULL_DELAY_MS, async (_, first) => {
        opened = await deliveries.open(delivery, created, first);
        return opened;
      });
      // Not sent (its webhook busy here): opened pending, for its job to send.
      opened ??= await deliveries.open(delivery, created);
      return { opened, outcome };
    },
  };
}
