import type { Redis } from 'ioredis';
import type { KeySpace } from './keys.ts';

export interface ExecutionEvents {
  /**
   * Resolves true as soon as the execution ends, or false after `timeoutMs`. `hasEnded` reads
   * the stored status: it is asked once at the start (the end may precede the wait) and then
   * every `pollMs`, because a message published while the subscriber reconnects is lost.
   */
  waitForEnd(id: string, timeoutMs: number, hasEnded: () => Promise<boolean>): Promise<boolean>;
  /**
   * Starts listening for the end of an execution that has not been queued yet, so that its end
   * cannot be missed and need not be polled for at once. Call `wait` once the run is queued, or
   * `cancel` when it will not be.
   */
  watchEnd(id: string, hasEnded: () => Promise<boolean>): EndWatch;
  /** Calls `listener` with the id of every execution whose termination is requested. */
  onCancelRequested(listener: (id: string) => void): () => void;
  close(): Promise<void>;
}

export interface EndWatch {
  /** Resolves true when the execution has ended, false after `timeoutMs`. */
  wait(timeoutMs: number): Promise<boolean>;
  cancel(): void;
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

  function watchEnd(id: string, hasEnded: () => Promise<boolean>) {
    let settled = false;
    let pollTimer: NodeJS.Timeout | undefined;
    let deadline: NodeJS.Timeout | undefined;
    let resolveWait: ((ended: boolean) => void) | undefined;
    let endedEarly = false;
    const waiters = endWaiters.get(id) ?? new Set<(ended: boolean) => void>();
    endWaiters.set(id, waiters);
    const finish = (ended: boolean) => {
      if (settled) return;
      if (!resolveWait) {
        // The end arrived before anyone waits: remember it for `wait`.
        if (ended) endedEarly = true;
        return;
      }
      settled = true;
      clearTimeout(deadline);
      clearTimeout(pollTimer);
      waiters.delete(finish);
      if (waiters.size === 0) endWaiters.delete(id);
      resolveWait?.(ended);
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
    return {
      wait(timeoutMs: number, options: { pollNow?: boolean } = {}) {
        return new Promise<boolean>((resolve) => {
          resolveWait = resolve;
          if (endedEarly) {
            finish(true);
            return;
          }
          deadline = setTimeout(() => finish(false), timeoutMs);
          if (options.pollNow) poll();
          else pollTimer = setTimeout(poll, pollMs);
        });
      },
      cancel() {
        resolveWait ??= () => {};
        finish(false);
      },
    };
  }

  return {
    waitForEnd(id, timeoutMs, hasEnded) {
      const watch = watchEnd(id, hasEnded);
      return watch.wait(timeoutMs, { pollNow: true });
    },

    watchEnd: (id, hasEnded) => watchEnd(id, hasEnded),

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
