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

export interface WorkerRegistry {
  /** Writes the record with a TTL; a worker that stops beating vanishes by itself. */
  beat(heartbeat: WorkerHeartbeat, ttlMs: number): Promise<void>;
  remove(id: string): Promise<void>;
  /** Live workers, newest heartbeat first. */
  list(): Promise<WorkerHeartbeat[]>;
  count(): Promise<number>;
}

export function createWorkerRegistry(deps: { redis: Redis; keys: KeySpace; ttlMs: number }): WorkerRegistry {
  const { redis, keys, ttlMs } = deps;

  // The sorted set indexes the expiring records by last heartbeat; older than the TTL is dead.
  const cutoff = () => Date.now() - ttlMs;

  async function liveIds(): Promise<string[]> {
    await redis.zremrangebyscore(keys.workers(), '-inf', `(${cutoff()}`);
    return redis.zrevrange(keys.workers(), 0, -1);
  }

  return {
    async beat(heartbeat, ttl) {
      await redis.multi().set(keys.worker(heartbeat.id), JSON.stringify(heartbeat), 'PX', ttl).zadd(keys.workers(), heartbeat.lastSeen, heartbeat.id).exec();
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
