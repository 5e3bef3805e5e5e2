import { mayAccessChoreo } from '@ces/accounts';
import type { Logger } from '@ces/observability';
import {
  enqueueDelivery,
  type ExecutionRecord,
  type ExecutionStore,
  NOTIFY_WEBHOOK,
  type WebhookDeliveries,
  type WebhookDescription,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookJobData,
  type WebhookStore,
  webhookDeliveryId,
} from '@ces/store';
import type { Queue } from 'bullmq';
import { webhookBody } from './webhook-body.ts';

export interface WebhookDispatcherOptions {
  executions: ExecutionStore;
  webhooks: WebhookStore;
  deliveries: WebhookDeliveries;
  queue: Queue<WebhookJobData>;
  logger: Logger;
  /** How long a claimed event is this dispatcher's alone; a dead dispatcher's events are taken after it. */
  leaseMs: number;
  /** Longest wait between two looks at the outbox. */
  pollMs: number;
  /** Most events claimed at once. */
  batch: number;
  now?: () => number;
}

export interface WebhookDispatcher {
  start(): void;
  stop(): Promise<void>;
  /** One pass over the outbox: the number of events it settled. */
  dispatch(): Promise<number>;
}

/** The type a subscription is sent for an event, if any: a failure it wants as such, once. */
export function deliveredType(events: readonly WebhookEventType[], kind: WebhookEvent['kind'], status: string): WebhookEventType | undefined {
  if (kind === 'start') return events.includes('execution.started') ? 'execution.started' : undefined;
  if ((status === 'ERROR' || status === 'TERMINATED_LIMIT') && events.includes('execution.failed')) return 'execution.failed';
  return events.includes('execution.ended') ? 'execution.ended' : undefined;
}

const wants = (webhook: WebhookDescription, choreo: string) =>
  webhook.disabled === undefined && mayAccessChoreo(webhook.within, choreo) && (webhook.choreos === undefined || mayAccessChoreo(webhook.choreos, choreo));

/**
 * Turns the runs' events of the outbox into deliveries, in every worker: events are claimed under
 * a lease, each gets one delivery per subscription that wants it (and the run's own call-back),
 * each delivery its job, and only then does the event leave the outbox. A dispatcher that dies
 * in between leaves the event to be claimed again, whose deliveries and first jobs have the same
 * ids: nothing is sent twice for it.
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { executions, webhooks, deliveries, queue, logger, leaseMs, pollMs, batch, now = Date.now } = options;
  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;

  async function open(event: WebhookEvent, record: ExecutionRecord, webhook: string, type: WebhookEventType, url: string): Promise<void> {
    const id = webhookDeliveryId(event.account, webhook, event.executionId, event.kind);
    await deliveries.open({ id, account: event.account, webhook, executionId: event.executionId, type, url, body: webhookBody(type, record) }, now());
    await enqueueDelivery(queue, id, 0);
  }

  async function dispatchEvent(event: WebhookEvent, subscriptions: WebhookDescription[]): Promise<void> {
    const record = await executions.get(event.executionId);
    // Expired before it was dispatched (a fleet down for the whole retention): there is nothing left to tell.
    if (record && record.account === event.account) {
      const opened: Promise<void>[] = [];
      for (const webhook of subscriptions) {
        const type = deliveredType(webhook.events, event.kind, record.status);
        if (type !== undefined && wants(webhook, record.choreo)) opened.push(open(event, record, webhook.name, type, webhook.url));
      }
      if (event.kind === 'end' && record.notifyUrl !== undefined) opened.push(open(event, record, NOTIFY_WEBHOOK, 'execution.ended', record.notifyUrl));
      await Promise.all(opened);
    }
    await deliveries.settleEvent(event);
  }

  async function dispatch(): Promise<number> {
    const events = await deliveries.claimEvents(now(), leaseMs, batch);
    // An account's subscriptions are read once per pass, however many of its runs ended.
    const byAccount = new Map<string, Promise<WebhookDescription[]>>();
    const subscriptionsOf = (account: string) => {
      let found = byAccount.get(account);
      if (!found) {
        found = webhooks.list(account);
        byAccount.set(account, found);
      }
      return found;
    };
    const settled = await Promise.all(
      events.map(async (event) => {
        try {
          await dispatchEvent(event, await subscriptionsOf(event.account));
          return 1;
        } catch (error) {
          // Left in the outbox: claimed again once the lease ends.
          logger.warn({ err: error, executionId: event.executionId, kind: event.kind }, 'webhook event not dispatched');
          return 0;
        }
      }),
    );
    return settled.reduce<number>((sum, one) => sum + one, 0);
  }

  async function runLoop(): Promise<void> {
    while (running) {
      let full = false;
      try {
        full = (await dispatch()) >= batch;
      } catch (error) {
        logger.warn({ err: error }, 'webhook dispatch pass failed');
      }
      if (!running) break;
      if (full) continue;
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
    },
  };
}
