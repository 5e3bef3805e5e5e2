import type { Redis } from 'ioredis';
import type { OverduePlace } from './execution-store.ts';
import type { KeySpace } from './keys.ts';

/**
 * What the workers' reconciler keeps in Redis between passes, whichever worker runs them: the lock
 * that lets one pass run at a time, the walk's place among the RUNNING executions, and the place
 * of its scan of overdue durable waits.
 */
export interface ReconcilerState {
  /** Takes the lock for `ttlMs` unless another worker holds it; true when this one has it now. */
  lock(workerId: string, ttlMs: number): Promise<boolean>;
  /** The start time up to which the current walk has looked, undefined when a walk starts afresh. */
  place(): Promise<number | undefined>;
  /** Keeps the walk's place for `ttlMs`: long enough for the next pass, on whichever worker. */
  keepPlace(starttime: number, ttlMs: number): Promise<void>;
  /** The walk reached the youngest: the next pass starts again from the oldest. */
  restartWalk(): Promise<void>;
  /** Where the current scan of overdue waits goes on, undefined when it starts afresh. */
  overduePlace(): Promise<OverduePlace | undefined>;
  /** Keeps the overdue scan's place for `ttlMs`; undefined starts the next scan from the longest due. */
  keepOverduePlace(place: OverduePlace | undefined, ttlMs: number): Promise<void>;
}

export function createReconcilerState(deps: { redis: Redis; keys: KeySpace }): ReconcilerState {
  const { redis, keys } = deps;
  return {
    async lock(workerId, ttlMs) {
      return (await redis.set(keys.reconcilerLock(), workerId, 'PX', ttlMs, 'NX')) === 'OK';
    },
    async place() {
      const place = await redis.get(keys.reconcilerCursor());
      return place === null ? undefined : Number(place);
    },
    async keepPlace(starttime, ttlMs) {
      await redis.set(keys.reconcilerCursor(), String(starttime), 'PX', ttlMs);
    },
    async restartWalk() {
      await redis.del(keys.reconcilerCursor());
    },
    async overduePlace() {
      const [dueMs, skip] = ((await redis.get(keys.reconcilerOverduePlace())) ?? '').split(':').map(Number);
      return dueMs === undefined || skip === undefined || !Number.isFinite(dueMs) || !Number.isFinite(skip) ? undefined : { dueMs, skip };
    },
    async keepOverduePlace(place, ttlMs) {
      if (place === undefined) await redis.del(keys.reconcilerOverduePlace());
      else await redis.set(keys.reconcilerOverduePlace(), `${place.dueMs}:${place.skip}`, 'PX', ttlMs);
    },
  };
}
