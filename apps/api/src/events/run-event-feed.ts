import type { Logger } from '@ces/observability';
import { isRunEventAfter, type KeySpace, type RunEventLog, type StoredRunEvent, shardedPubSub } from '@ces/store';
import type { Redis } from 'ioredis';

/** Told the events of one execution as they are read, oldest first, each once. */
export type RunEventListener = (events: readonly StoredRunEvent[]) => void;

export interface RunEventFeed {
  /**
   * Tells `listener` the execution's events after `afterId` (from the first kept when absent), then
   * every later one as it is added, until the returned function is called. `onClosed` is called
   * when the feed closes first (the process stops).
   */
  subscribe(executionId: string, afterId: string | undefined, listener: RunEventListener, onClosed?: () => void): Promise<() => void>;
  /** How many subscriptions are open. */
  size(): number;
  /** Ends every subscription (their `onClosed`) and stops listening. */
  close(): Promise<void>;
}

interface Watcher {
  afterId: string | undefined;
  listener: RunEventListener;
  onClosed: (() => void) | undefined;
}

/** The watchers of one execution, and its reads: one at a time, another after it when more came meanwhile. */
interface Watched {
  executionId: string;
  /** The channel its shard announces its events on. */
  channel: string;
  watchers: Set<Watcher>;
  reading: boolean;
  again: boolean;
}

/**
 * One feed per API process, whatever the number of open event streams: the scripts that add run
 * events publish the name of the list they added to (run-events.lua), the feed listens on the
 * process's one subscriber connection only while someone watches, and reads (LRANGE) only the
 * lists watched here. An idle stream costs nothing until something is added to it. When the
 * subscriber has reconnected, each watched list is read once, so that a message lost meanwhile
 * delays its events, never loses them.
 */
/** How long after a Cluster's sharded subscribers are sent again the watched lists are read again. */
const RESUBSCRIBED_MS = 250;

export function createRunEventFeed(deps: {
  subscriber: Redis;
  log: RunEventLog;
  /** The key space of an execution's shard, whose channel announces its events. */
  keysOf: (executionId: string) => KeySpace;
  logger: Logger;
}): RunEventFeed {
  const { subscriber, log, keysOf, logger } = deps;
  /** By the name of the execution's list of events, which is what is published. */
  const watched = new Map<string, Watched>();
  /** By channel (one per shard), while an execution of its shard is watched. */
  const subscribed = new Map<string, Promise<unknown>>();
  /** By channel, how many watched executions it announces. */
  const watchedOn = new Map<string, number>();
  let closed = false;

  const read = async (entry: Watched) => {
    if (entry.reading) {
      entry.again = true;
      return;
    }
    entry.reading = true;
    try {
      do {
        entry.again = false;
        if (entry.watchers.size === 0) return;
        const events = await log.read(entry.executionId, earliest(entry));
        if (events.length === 0) continue;
        for (const watcher of entry.watchers) {
          const fresh = watcher.afterId === undefined ? events : events.filter((event) => isRunEventAfter(event.id, watcher.afterId as string));
          if (fresh.length === 0) continue;
          watcher.afterId = (fresh.at(-1) as StoredRunEvent).id;
          watcher.listener(fresh);
        }
      } while (entry.again);
    } catch (error) {
      // Read again at the next message, or when the subscriber has reconnected.
      logger.warn({ executionId: entry.executionId, err: (error as Error).message }, 'could not read run events');
    } finally {
      entry.reading = false;
    }
  };

  const onMessage = (from: string, list: string) => {
    if (!subscribed.has(from)) return;
    const entry = watched.get(list);
    if (entry !== undefined) void read(entry);
  };
  const readAll = () => {
    for (const entry of watched.values()) void read(entry);
  };
  const pubSub = shardedPubSub(subscriber);
  pubSub.onMessage(subscriber, onMessage);
  // Messages published while the connection was down are lost: what they announced is read now
  // (a Cluster's sharded subscribers say so apart).
  subscriber.on('ready', readAll);
  // Said as the sharded subscriptions are sent, before Redis has taken them: read again once it has.
  const readAfterResubscribing = () => {
    readAll();
    setTimeout(readAll, RESUBSCRIBED_MS).unref();
  };
  subscriber.on('subscribersReady', readAfterResubscribing);

  const listen = (channel: string) => {
    let subscription = subscribed.get(channel);
    if (subscription === undefined) {
      subscription = pubSub.subscribe(subscriber, channel).catch((error: unknown) => {
        subscribed.delete(channel);
        throw error;
      });
      subscribed.set(channel, subscription);
    }
    return subscription;
  };
  const stopListening = (channel: string) => {
    if (!subscribed.delete(channel)) return;
    pubSub.unsubscribe(subscriber, channel).catch(() => {});
  };

  return {
    async subscribe(executionId, afterId, listener, onClosed) {
      if (closed) throw new Error('the run event feed is closed');
      const keys = keysOf(executionId);
      const list = keys.executionEvents(executionId);
      const channel = keys.runEventsChannel();
      let entry = watched.get(list);
      if (entry === undefined) {
        entry = { executionId, channel, watchers: new Set(), reading: false, again: false };
        watched.set(list, entry);
        watchedOn.set(channel, (watchedOn.get(channel) ?? 0) + 1);
      }
      const watcher: Watcher = { afterId, listener, onClosed };
      entry.watchers.add(watcher);
      const unsubscribe = () => {
        const current = watched.get(list);
        if (current === undefined || !current.watchers.delete(watcher)) return;
        if (current.watchers.size > 0) return;
        watched.delete(list);
        const left = (watchedOn.get(channel) ?? 1) - 1;
        if (left > 0) watchedOn.set(channel, left);
        else {
          watchedOn.delete(channel);
          stopListening(channel);
        }
      };
      try {
        // Listening before the first read: an event added in between is then announced after it.
        await listen(channel);
      } catch (error) {
        unsubscribe();
        throw error;
      }
      void read(entry);
      return unsubscribe;
    },

    size() {
      let count = 0;
      for (const entry of watched.values()) count += entry.watchers.size;
      return count;
    },

    async close() {
      closed = true;
      pubSub.offMessage(subscriber, onMessage);
      subscriber.off('subscribersReady', readAfterResubscribing);
      subscriber.off('ready', readAll);
      const watchers = [...watched.values()].flatMap((entry) => [...entry.watchers]);
      watched.clear();
      watchedOn.clear();
      for (const channel of [...subscribed.keys()]) stopListening(channel);
      for (const watcher of watchers) watcher.onClosed?.();
    },
  };
}

/** Where a read of `entry` starts: after the event its furthest-behind watcher has. */
function earliest(entry: Watched): string | undefined {
  let from: string | undefined;
  let first = true;
  for (const watcher of entry.watchers) {
    if (watcher.afterId === undefined) return undefined;
    if (first || isRunEventAfter(from as string, watcher.afterId)) from = watcher.afterId;
    first = false;
  }
  return from;
}
