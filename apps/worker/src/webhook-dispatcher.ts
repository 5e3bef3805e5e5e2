import { mayAccessChoreo } from '@ces/accounts';
import type { Logger } from '@ces/observability';
import {
  type ClaimedWebhookEvent,
  enqueueDelivery,
  NOTIFY_WEBHOOK,
  type SigningTarget,
  type WebhookDeliveries,
  type WebhookDescription,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookJobData,
  type WebhookRecord,
  type WebhookStore,
  webhookDeliveryId,
} from '@ces/store';
import type { Queue } from 'bullmq';
import { webhookBody } from './webhook-body.ts';
import type { WebhookSender } from './webhook-sender.ts';

export interface WebhookDispatcherOptions {
  webhooks: WebhookStore;
  deliveries: WebhookDeliveries;
  queue: Queue<WebhookJobData>;
  /** Sends each delivery's first attempt at once; only one it does not settle gets a job. */
  sender: WebhookSender;
  logger: Logger;
  /**
   * How long a claimed event is this dispatcher's alone; a dead dispatcher's events are taken after
   * it. Longer than an attempt may take (DELIVERY_TIMEOUT_MS), so that an event whose first attempt
   * is on its way is not taken twice.
   */
  leaseMs: number;
  /** Longest wait between two looks at the outbox. */
  pollMs: number;
  /** Most events claimed at once, and most being dispatched at once. */
  batch: number;
  now?: () => number;
}

export interface WebhookDispatcher {
  start(): void;
  stop(): Promise<void>;
  /** One pass over the outbox, to its end: the number of events it settled. */
  dispatch(): Promise<number>;
}

/** The type a subscription is sent for an event, if any: a failure it wants as such, once. */
export function deliveredType(events: readonly WebhookEventType[], kind: WebhookEvent['kind'], status: string): WebhookEventType | undefined {
  if (kind === 'start') return events.includes('execution.started') ? 'execution.started' : undefined;
  if ((status === 'ERROR' || status === 'TERMINATED_LIMIT') && events.includes('execution.failed')) return 'execution.failed';
  return events.includes('execution.ended') ? 'execution.ended' : undefined;
}

type Subscription = SigningTarget & { webhook: WebhookDescription };

const wants = (webhook: WebhookDescription, choreo: string) =>
  webhook.disabled === undefined && mayAccessChoreo(webhook.within, choreo) && (webhook.choreos === undefined || mayAccessChoreo(webhook.choreos, choreo));

/**
 * Turns the runs' events of the outbox into deliveries, in every worker: events are claimed under
 * a lease, each gets one delivery per subscription that wants it (and the run's own call-back),
 * sent at once and opened with that first attempt, a job for each not delivered, and only then
 * does the event leave the outbox. A dispatcher that dies in between leaves the event to be
 * claimed again, known as claimed before: its deliveries are opened before they are sent, with
 * the same ids, so none recorded delivered is sent again (one sent and not yet recorded may be:
 * the receiver knows it by its `webhook-id`).
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { webhooks, deliveries, queue, sender, logger, leaseMs, pollMs, batch, now = Date.now } = options;
  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  // Events being dispatched by the loop, which claims more as they settle.
  let dispatching = 0;
  // Events whose deliveries all exist, taken out of the outbox together: one command per turn of
  // the event loop rather than one per event.
  let settling: { events: WebhookEvent[]; done: Promise<void> } | undefined;

  function settle(event: WebhookEvent): Promise<void> {
    if (!settling) {
      const batch: WebhookEvent[] = [];
      settling = {
        events: batch,
        done: new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
          settling = undefined;
          return deliveries.settleEvents(batch);
        }),
      };
    }
    settling.events.push(event);
    return settling.done;
  }

  async function open(
    event: ClaimedWebhookEvent,
    record: WebhookRecord,
    webhook: string,
    type: WebhookEventType,
    url: string,
    target: SigningTarget | undefined,
  ): Promise<void> {
    const delivery = {
      id: webhookDeliveryId(event.account, webhook, event.executionId, event.kind),
      account: event.account,
      webhook,
      executionId: event.executionId,
      type,
      url,
      body: webhookBody(type, record),
    };
    const at = now();
    // Most deliveries are delivered by their first attempt: sent here, they cost no job; sent
    // before they are opened, their record is written once, with that attempt.
    if (!event.claimedBefore) {
      const { opened, outcome } = await sender.sendFirst(delivery, at, target);
      if (!opened) await enqueueDelivery(queue, delivery.id, 0);
      else if (outcome.kind !== 'done') await enqueueDelivery(queue, delivery.id, 0, outcome.at - now());
      return;
    }
    // Its dispatcher died or failed before the event settled: the delivery may exist, delivered
    // or with no job queued yet. Opened first, it is sent only if it did not.
    if (!(await deliveries.open(delivery, at))) {
      // The job's id is the delivery's, and a job finds a delivery sent already done.
      await enqueueDelivery(queue, delivery.id, 0);
      return;
    }
    const outcome = await sender.sendOpened(delivery, at, target);
    if (outcome.kind !== 'done') await enqueueDelivery(queue, delivery.id, 0, outcome.at - now());
  }

  async function dispatchEvent(event: ClaimedWebhookEvent, subscriptions: Subscription[]): Promise<void> {
    const { record } = event;
    // Expired before it was dispatched (a fleet down for the whole retention): there is nothing left to tell.
    if (record && record.account === event.account) {
      const opened: Promise<void>[] = [];
      for (const subscription of subscriptions) {
        const { webhook } = subscription;
        const type = deliveredType(webhook.events, event.kind, record.status);
        if (type !== undefined && wants(webhook, record.choreo)) opened.push(open(event, record, webhook.name, type, webhook.url, subscription));
      }
      if (event.kind === 'end' && record.notifyUrl !== undefined)
        opened.push(open(event, record, NOTIFY_WEBHOOK, 'execution.ended', record.notifyUrl, undefined));
      await Promise.all(opened);
    }
    await settle(event);
  }

  /** Claims up to `limit` events and starts each: a promise per event, true once it settled. */
  async function claimAndStart(limit: number): Promise<Promise<boolean>[]> {
    const events = await deliveries.claimEvents(now(), leaseMs, limit);
    // An account's subscriptions and their secrets are read once per claim, however many of its
    // runs ended; the first attempts sign with them.
    const byAccount = new Map<string, Promise<Subscription[]>>();
    const subscriptionsOf = (account: string) => {
      let found = byAccount.get(account);
      if (!found) {
        found = webhooks.signingTargets(account);
        byAccount.set(account, found);
      }
      return found;
    };
    return events.map(async (event) => {
      try {
        await dispatchEvent(event, await subscriptionsOf(event.account));
        return true;
      } catch (error) {
        // Left in the outbox: claimed again once the lease ends.
        logger.warn({ err: error, executionId: event.executionId, kind: event.kind }, 'webhook event not dispatched');
        return false;
      }
    });
  }

  async function dispatch(): Promise<number> {
    const settled = await Promise.all(await claimAndStart(batch));
    return settled.filter(Boolean).length;
  }

  async function runLoop(): Promise<void> {
    while (running) {
      // Events are claimed as others settle, so an endpoint slow to answer a first attempt holds
      // back no other event: only its own place among the `batch` being dispatched.
      let claimed = 0;
      try {
        if (dispatching < batch) {
          const started = await claimAndStart(batch - dispatching);
          claimed = started.length;
          dispatching += claimed;
          for (const one of started)
            void one.finally(() => {
              dispatching -= 1;
              // Room again after being full: claim now rather than at the next poll.
              if (dispatching === batch - 1) wake?.();
            });
        }
      } catch (error) {
        logger.warn({ err: error }, 'webhook dispatch pass failed');
      }
      if (!running) break;
      if (claimed > 0 && dispatching < batch) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  }

  return {
    dispatch,
    start() {
      if (running) return;
      running = true;
      loop = runLoop();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
      // The first attempts under way end (within their timeout) before the connection closes.
      while (dispatching > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    },
  };
}
