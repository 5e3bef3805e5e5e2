import type { Redis } from 'ioredis';
import { decodeExecution, pairsToObject, type ExecutionRecord } from './execution-record.ts';
import type { KeySpace } from './keys.ts';
import { shardedPubSub } from './pub-sub.ts';
import { asShardLayout, type ShardLayout } from './shard-layout.ts';

/** How a wait for an execution's end came out. */
export interface EndOfWait {
  /** True when the execution has ended, false when the wait timed out (or was cancelled). */
  ended: boolean;
  /** The ended record, when the end message carried it; otherwise read it. */
  record?: ExecutionRecord;
}

export interface ExecutionEvents {
  /**
   * Starts listening for the end of an execution that has not been queued yet, so that its end
   * cannot be missed and need not be polled for at once. Call `wait` once the run is queued, or
   * `cancel` when it will not be. `hasEnded` reads the stored status every `pollMs` while
   * waiting, because a message published while the subscriber reconnects is lost. Only an
   * execution created with `notifyEnd` has its end published.
   */
  watchEnd(id: string, hasEnded: () => Promise<boolean>): EndWatch;
  /**
   * Calls `listener` with the id of every execution whose termination is requested, more than once
   * for one request (it is published under the channel's earlier name too): acting on it must be
   * idempotent.
   */
  onTerminationRequested(listener: (id: string) => void): () => void;
  close(): Promise<void>;
}

export interface EndWatch {
  /** Resolves when the execution has ended, or after `timeoutMs`. */
  wait(timeoutMs: number): Promise<EndOfWait>;
  cancel(): void;
}

/**
 * What a process listens for: the ends of runs it waits for (APIs), the ends of child executions
 * (workers, for the parents they run), requests to terminate (workers).
 */
export type ExecutionEventKind = 'ends' | 'child-ends' | 'terminations';

/**
 * Pub/sub over one dedicated subscriber connection, shared by every waiter of the process. It
 * subscribes only to the channels of `listenFor`: Redis sends every message of a channel to each
 * of its subscribers, and an end message carries the ended record (up to 64 KiB), so a fleet of
 * workers listening for ends they never wait for multiplied Redis's output for every synchronous
 * run by the number of processes.
 */
export async function createExecutionEvents(deps: {
  subscriber: Redis;
  /** The key space of a deployment without shards, or the layout of every shard (shard-layout.ts). */
  keys: KeySpace | ShardLayout;
  listenFor: readonly ExecutionEventKind[];
  pollMs?: number;
}): Promise<ExecutionEvents> {
  const { subscriber } = deps;
  const layout = asShardLayout(deps.keys);
  const listening = new Set(deps.listenFor);
  const pollMs = deps.pollMs ?? 1_000;
  // Each shard's runs publish on its own channels: in its slot on a Cluster (pub-sub.ts).
  const endedChannels = new Set<string>();
  const childEndedChannels = new Set<string>();
  // A request reaches a worker on both while processes of earlier versions run: it is acted on once.
  const terminationChannels = new Set<string>();
  /** Per shard, its channels of ends subscribed to: a sharded subscription names channels of one slot. */
  const endChannels: string[][] = [];
  const endWaiters = new Map<string, Set<(ended: boolean, record?: ExecutionRecord) => void>>();
  const terminationListeners = new Set<(id: string) => void>();

  const pubSub = shardedPubSub(subscriber);
  const onMessage = (channel: string, message: string) => {
    if (endedChannels.has(channel)) {
      // "<id>" or "<id>\n<the ended record's fields as a JSON array>" (see end-execution.lua).
      const newline = message.indexOf('\n');
      const id = newline < 0 ? message : message.slice(0, newline);
      const waiters = endWaiters.get(id);
      if (!waiters) return;
      const record = newline < 0 ? undefined : decodeEndedRecord(message.slice(newline + 1));
      for (const settle of [...waiters]) settle(true, record);
    } else if (childEndedChannels.has(channel)) {
      // "<id>": the waiter reads the record.
      for (const settle of [...(endWaiters.get(message) ?? [])]) settle(true);
    } else if (terminationChannels.has(channel)) {
      for (const listener of terminationListeners) listener(message);
    }
  };
  // Ends come sharded on a Cluster (pub-sub.ts), termination requests plain.
  subscriber.on('message', onMessage);
  if (pubSub.publish === 'SPUBLISH') pubSub.onMessage(subscriber, onMessage);
  const listenTo = async (shards: readonly KeySpace[]) => {
    const terminations: string[] = [];
    for (const keys of shards) {
      const ends = [...(listening.has('ends') ? [keys.executionEndedChannel()] : []), ...(listening.has('child-ends') ? [keys.childEndedChannel()] : [])];
      if (listening.has('ends')) endedChannels.add(keys.executionEndedChannel());
      if (listening.has('child-ends')) childEndedChannels.add(keys.childEndedChannel());
      endChannels.push(ends);
      if (ends.length > 0) await pubSub.subscribe(subscriber, ...ends);
      terminations.push(keys.terminationRequestedChannel(), keys.legacyTerminationRequestedChannel());
    }
    if (listening.has('terminations')) {
      for (const channel of terminations) terminationChannels.add(channel);
      await subscriber.subscribe(...terminations);
    }
  };
  await listenTo(layout.shards.map((shard) => shard.keys));
  // Shards a growing deployment adds are listened to as this process learns of them.
  const stopFollowing = layout.onAdded((added) => {
    listenTo(added.map((shard) => shard.keys)).catch(() => {});
  });

  function watchEnd(id: string, hasEnded: () => Promise<boolean>) {
    if (!listening.has('ends') && !listening.has('child-ends')) throw new Error("watchEnd needs execution events created to listen for 'ends' or 'child-ends'");
    let settled = false;
    let pollTimer: NodeJS.Timeout | undefined;
    let deadline: NodeJS.Timeout | undefined;
    let resolveWait: ((outcome: EndOfWait) => void) | undefined;
    let endedEarly: EndOfWait | undefined;
    const waiters = endWaiters.get(id) ?? new Set<(ended: boolean, record?: ExecutionRecord) => void>();
    endWaiters.set(id, waiters);
    const settle = (ended: boolean, record?: ExecutionRecord) => {
      if (settled) return;
      if (!resolveWait) {
        // The end arrived before anyone waits: remember it for `wait`.
        if (ended) endedEarly = { ended, ...(record ? { record } : {}) };
        return;
      }
      settled = true;
      clearTimeout(deadline);
      clearTimeout(pollTimer);
      waiters.delete(settle);
      if (waiters.size === 0) endWaiters.delete(id);
      resolveWait?.({ ended, ...(record ? { record } : {}) });
    };
    const poll = () => {
      hasEnded().then(
        (ended) => {
          if (ended) settle(true);
          else if (!settled) pollTimer = setTimeout(poll, pollMs);
        },
        () => {
          if (!settled) pollTimer = setTimeout(poll, pollMs);
        },
      );
    };
    waiters.add(settle);
    return {
      wait(timeoutMs: number) {
        return new Promise<EndOfWait>((resolve) => {
          resolveWait = resolve;
          if (endedEarly) {
            settle(true, endedEarly.record);
            return;
          }
          deadline = setTimeout(() => settle(false), timeoutMs);
          pollTimer = setTimeout(poll, pollMs);
        });
      },
      cancel() {
        resolveWait ??= () => {};
        settle(false);
      },
    };
  }

  return {
    watchEnd: (id, hasEnded) => watchEnd(id, hasEnded),

    onTerminationRequested(listener) {
      if (!listening.has('terminations')) throw new Error("onTerminationRequested needs execution events created to listen for 'terminations'");
      terminationListeners.add(listener);
      return () => terminationListeners.delete(listener);
    },

    async close() {
      // Waiters learn nothing more once the process is closing; they stop waiting, unanswered.
      for (const waiters of endWaiters.values()) for (const settle of [...waiters]) settle(false);
      endWaiters.clear();
      terminationListeners.clear();
      stopFollowing();
      subscriber.off('message', onMessage);
      if (pubSub.publish === 'SPUBLISH') pubSub.offMessage(subscriber, onMessage);
      for (const channels of endChannels) if (channels.length > 0) await pubSub.unsubscribe(subscriber, ...channels).catch(() => {});
      await subscriber.unsubscribe().catch(() => {});
    },
  };
}

function decodeEndedRecord(json: string): ExecutionRecord | undefined {
  try {
    return decodeExecution(pairsToObject(JSON.parse(json)));
  } catch {
    // Unreadable, it is as if the message had carried the id alone: the waiter reads the record.
    return undefined;
  }
}
