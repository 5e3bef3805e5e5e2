import type { WorkerHeartbeat, WorkerRegistry } from '@ces/store';

export const HEARTBEAT_INTERVAL_MS = 5_000;
/** Three missed beats and a worker is gone from the list. */
export const HEARTBEAT_TTL_MS = 15_000;

/** Refreshes this worker's record on a timer; `stop` removes it at once on a clean exit. */
export function startHeartbeat(deps: { registry: WorkerRegistry; snapshot: () => Omit<WorkerHeartbeat, 'lastSeen'>; onError: (error: unknown) => void }) {
  const beat = () => deps.registry.beat({ ...deps.snapshot(), lastSeen: Date.now() }, HEARTBEAT_TTL_MS).catch(deps.onError);
  const timer = setInterval(beat, HEARTBEAT_INTERVAL_MS);
  timer.unref();
  return {
    beat,
    async stop() {
      clearInterval(timer);
      await deps.registry.remove(deps.snapshot().id).catch(deps.onError);
    },
  };
}
