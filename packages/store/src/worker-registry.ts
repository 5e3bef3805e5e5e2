import type { Redis } from 'ioredis';
import type { KeySpace } from './keys.ts';
import type { ShardLayout } from './shard-layout.ts';

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
  /**
   * True when the worker's takes and ends are published in its set of executions (keys.ts,
   * workerExecutions) as they happen: `list` reads `active` there, not from the last heartbeat.
   */
  takesPublished?: boolean;
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
  /**
   * Live workers, newest heartbeat first, each with the executions it holds now: taken and not yet
   * ended or handed back, from the take on (a worker of a version that does not publish its takes:
   * as of its last heartbeat).
   */
  list(): Promise<WorkerHeartbeat[]>;
  count(): Promise<number>;
}

export function createWorkerRegistry(deps: {
  redis: Redis;
  keys: KeySpace;
  /**
   * Where runs live (shard-layout.ts): a worker's executions are kept per shard, by the scripts of
   * each; absent, in `keys`' slot alone.
   */
  layout?: ShardLayout;
}): WorkerRegistry {
  const { redis, keys } = deps;
  const others = () => (deps.layout?.shards ?? []).map((shard) => shard.keys).filter((shard) => shard.prefix !== keys.prefix);
  const ttlMs = HEARTBEAT_TTL_MS;

  // The sorted set indexes the expiring records by last heartbeat; older than the TTL is dead.
  const cutoff = () => Date.now() - ttlMs;

  async function liveIds(): Promise<string[]> {
    await redis.zremrangebyscore(keys.workers(), '-inf', `(${cutoff()}`);
    return redis.zrevrange(keys.workers(), 0, -1);
  }

  return {
    async beat(heartbeat) {
      await redis
        .multi()
        .set(keys.worker(heartbeat.id), JSON.stringify(heartbeat), 'PX', ttlMs)
        .zadd(keys.workers(), heartbeat.lastSeen, heartbeat.id)
        // The set of its executions lives as long as the worker does (each take sets it going too).
        .pexpire(keys.workerExecutions(heartbeat.id), ttlMs)
        .exec();
      // Each in its own shard's slot.
      await Promise.all(others().map((shard) => redis.pexpire(shard.workerExecutions(heartbeat.id), ttlMs)));
    },

    async remove(id) {
      await redis.multi().del(keys.worker(id), keys.workerExecutions(id)).zrem(keys.workers(), id).exec();
      await Promise.all(others().map((shard) => redis.del(shard.workerExecutions(id))));
    },

    async list() {
      const ids = await liveIds();
      if (ids.length === 0) return [];
      const pipeline = redis.pipeline().mget(ids.map((id) => keys.worker(id)));
      for (const id of ids) pipeline.smembers(keys.workerExecutions(id));
      // A pipeline per shard: on a Cluster, one pipeline's keys share a slot.
      const [control, ...elsewhere] = await Promise.all([
        pipeline.exec(),
        ...others().map((shard) => {
          const onShard = redis.pipeline();
          for (const id of ids) onShard.smembers(shard.workerExecutions(id));
          return onShard.exec();
        }),
      ]);
      const [first, ...held] = (control ?? []) as [Error | null, unknown][];
      const [recordsError, records] = first ?? [new Error('no reply'), []];
      if (recordsError) throw recordsError;
      const heldOf = (replies: [Error | null, unknown][] | null | undefined, index: number) => {
        const [heldError, executions] = replies?.[index] ?? [null, []];
        if (heldError) throw heldError;
        return executions as string[];
      };
      return (records as (string | null)[]).flatMap((json, index) => {
        if (json === null) return [];
        const heartbeat = JSON.parse(json) as WorkerHeartbeat;
        const executions = [heldOf(held, index), ...elsewhere.map((replies) => heldOf(replies as [Error | null, unknown][], index))].flat();
        return [heartbeat.takesPublished ? { ...heartbeat, active: executions.sort() } : heartbeat];
      });
    },

    // Asked by every readiness probe and metrics scrape: one ZCOUNT, not every record read and parsed.
    count() {
      return redis.zcount(keys.workers(), cutoff(), '+inf');
    },
  };
}
