import { HEARTBEAT_INTERVAL_MS, type WorkerHeartbeat, type WorkerRegistry } from '@ces/store';

/** Refreshes this worker's record on a timer; `stop` removes it at once on a clean exit. */
export function startHeartbeat(deps: { registry: WorkerRegistry; snapshot: () => Omit<WorkerHeartbeat, 'lastSeen'>; onError: (error: unknown) => void }) {
  const beat = () => deps.registry.beat({ ...deps.snapshot(), lastSeen: Date.now() }).catch(deps.onError);
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
