import type { Redis } from 'ioredis';
import type { KeySpace } from './keys.ts';

/** What a worker says of itself on every heartbeat. */
export interface WorkerHeartbeat {
  id: string;
  host: string;
  pid: number;
  concurrency: number;
  active: string[];
  processed: number;
  failed: number;
  version: string;
  started: number;
  lastSeen: number;
}

/**
 * How long a worker's record outlives its last heartbeat: three missed beats (every
 * HEARTBEAT_INTERVAL_MS) and it is gone from the list.
 */
export const HEARTBEAT_TTL_MS = 15_000;
export const HEARTBEAT_INTERVAL_MS = HEARTBEAT_TTL_MS / 3;

export interface WorkerRegistry {
  /** Writes the record for HEARTBEAT_TTL_MS; a worker that stops beating vanishes by itself. */
  beat(heartbeat: WorkerHeartbeat): Promise<void>;
  remove(id: string): Promise<void>;
  /** Live workers, newest heartbeat first. */
  list(): Promise<WorkerHeartbeat[]>;
  count(): Promise<number>;
}

export function createWorkerRegistry(deps: { redis: Redis; keys: KeySpace }): WorkerRegistry {
  const { redis, keys } = deps;
  const ttlMs = HEARTBEAT_TTL_MS;

  // The sorted set indexes the expiring records by last heartbeat; older than the TTL is dead.
  const cutoff = () => Date.now() - ttlMs;

  async function liveIds(): Promise<string[]> {
    await redis.zremrangebyscore(keys.workers(), '-inf', `(${cutoff()}`);
    return redis.zrevrange(keys.workers(), 0, -1);
  }

  return {
    async beat(heartbeat) {
      await redis.multi().set(keys.worker(heartbeat.id), JSON.stringify(heartbeat), 'PX', ttlMs).zadd(keys.workers(), heartbeat.lastSeen, heartbeat.id).exec();
    },

    async remove(id) {
      await redis.multi().del(keys.worker(id)).zrem(keys.workers(), id).exec();
    },

    async list() {
      const ids = await liveIds();
      if (ids.length === 0) return [];
      const records = await redis.mget(ids.map((id) => keys.worker(id)));
      return records.flatMap((json) => (json === null ? [] : [JSON.parse(json) as WorkerHeartbeat]));
    },

    // Asked by every readiness probe and metrics scrape: one ZCOUNT, not every record read and parsed.
    count() {
      return redis.zcount(keys.workers(), cutoff(), '+inf');
    },
  };
}
