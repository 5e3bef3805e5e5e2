import type { ExecutionStore, ExecutionSummary } from '@ces/store';

/** What a watcher hears: the run's record changed (status, host, error), or it ended. */
export type RunChange = { type: 'changed' | 'ended'; record: ExecutionSummary };

export interface RunWatch {
  /** Calls `listener` on each change of the run's record until the returned function is called. */
  watch(id: string, listener: (change: RunChange) => void): () => void;
  close(): void;
}

const fingerprint = (record: ExecutionSummary) => [record.status, record.host, record.lasterror ?? '', record.endtime ?? ''].join('\n');

/**
 * One poll a process for every open run page: each interval, the records of all the runs watched,
 * read together, and each listener told of what changed. However many pages are open, the cost is
 * one read per watched run per interval, and nothing at all while none is.
 */
export function createRunWatch(deps: { executions: ExecutionStore; intervalMs?: number }): RunWatch {
  const intervalMs = deps.intervalMs ?? 1_000;
  const watched = new Map<string, { listeners: Set<(change: RunChange) => void>; seen?: string }>();
  let timer: NodeJS.Timeout | undefined;
  let polling = false;

  async function poll() {
    if (polling) return;
    polling = true;
    try {
      const ids = [...watched.keys()];
      const records = await Promise.all(ids.map((id) => deps.executions.summary(id, { withOutputs: false }).catch(() => undefined)));
      for (const [index, id] of ids.entries()) {
        const entry = watched.get(id);
        const record = records[index];
        if (!entry || !record) continue;
        const seen = fingerprint(record);
        if (seen === entry.seen) continue;
        const first = entry.seen === undefined;
        entry.seen = seen;
        const type = record.status === 'RUNNING' ? 'changed' : 'ended';
        if (first && type === 'changed') continue;
        for (const listener of entry.listeners) listener({ type, record });
      }
    } finally {
      polling = false;
    }
  }

  function stopWhenIdle() {
    if (watched.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  return {
    watch(id, listener) {
      let entry = watched.get(id);
      if (!entry) {
        entry = { listeners: new Set() };
        watched.set(id, entry);
      }
      entry.listeners.add(listener);
      if (!timer) {
        timer = setInterval(() => void poll(), intervalMs);
        timer.unref();
      }
      return () => {
        const current = watched.get(id);
        current?.listeners.delete(listener);
        if (current && current.listeners.size === 0) watched.delete(id);
        stopWhenIdle();
      };
    },
    close() {
      watched.clear();
      stopWhenIdle();
    },
  };
}
