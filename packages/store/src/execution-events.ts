import type { Redis } from 'ioredis';
import type { KeySpace } from './keys.ts';

export interface ExecutionEvents {
  /**
   * Resolves true as soon as the execution ends, or false after `timeoutMs`. `hasEnded` reads
   * the stored status: it is asked once at the start (the end may precede the wait) and then
   * every `pollMs`, because a message published while the subscriber reconnects is lost.
   */
  waitForEnd(id: string, timeoutMs: number, hasEnded: () => Promise<boolean>): Promise<boolean>;
  /** Calls `listener` with the id of every execution whose termination is requested. */
  onCancelRequested(listener: (id: string) => void): () => void;
  close(): Promise<void>;
}

/** Pub/sub over one dedicated subscriber connection, shared by every waiter of the process. */
export async function createExecutionEvents(deps: {
  subscriber: Redis;
  keys: KeySpace;
  pollMs?: number;
}): Promise<ExecutionEvents> {
  const { subscriber, keys } = deps;
  const pollMs = deps.pollMs ?? 1_000;
  const endedChannel = keys.executionEndedChannel();
  const cancelChannel = keys.cancelRequestedChannel();
  const endWaiters = new Map<string, Set<(ended: boolean) => void>>();
  const cancelListeners = new Set<(id: string) => void>();

  subscriber.on('message', (channel: string, id: string) => {
    if (channel === endedChannel) {
      const waiters = endWaiters.get(id);
      if (waiters) for (const finish of [...waiters]) finish(true);
    } else if (channel === cancelChannel) {
      for (const listener of cancelListeners) listener(id);
    }
  });
  await subscriber.subscribe(endedChannel, cancelChannel);

  return {
    waitForEnd(id, timeoutMs, hasEnded) {
      return new Promise<boolean>((resolve) => {
        let settled = false;
        let pollTimer: NodeJS.Timeout | undefined;
        const waiters = endWaiters.get(id) ?? new Set<(ended: boolean) => void>();
        endWaiters.set(id, waiters);
        const finish = (ended: boolean) => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          clearTimeout(pollTimer);
          waiters.delete(finish);
          if (waiters.size === 0) endWaiters.delete(id);
          resolve(ended);
        };
        const poll = () => {
          hasEnded().then(
            (ended) => {
              if (ended) finish(true);
              else if (!settled) pollTimer = setTimeout(poll, pollMs);
            },
            () => {
              if (!settled) pollTimer = setTimeout(poll, pollMs);
            },
          );
        };
        waiters.add(finish);
        const deadline = setTimeout(() => finish(false), timeoutMs);
        poll();
      });
    },

    onCancelRequested(listener) {
      cancelListeners.add(listener);
      return () => cancelListeners.delete(listener);
    },

    async close() {
      // Waiters learn nothing more once the process is closing; they stop waiting, unanswered.
      for (const waiters of endWaiters.values()) for (const finish of [...waiters]) finish(false);
      endWaiters.clear();
      cancelListeners.clear();
      await subscriber.unsubscribe().catch(() => {});
    },
  };
}
