import { Redis, type RedisOptions } from 'ioredis';
import { coalesceWrites } from './coalesce-writes.ts';

/**
 * How a connection behaves while Redis is away.
 * - `request`: serves HTTP requests; fails at once so the API can answer 503 instead of hanging.
 * - `queue`: the API's queue (BullMQ) and the records that must reach Redis before their jobs;
 *   fails at once like `request`.
 * - `durable`: workers and BullMQ; waits for Redis to return and retries, so work carries on.
 * - `subscriber`: pub/sub listening; reconnects and resubscribes by itself.
 */
export type ConnectionRole = 'request' | 'queue' | 'durable' | 'subscriber';

export function createRedisConnection(url: string, role: ConnectionRole, name?: string): Redis {
  const common: RedisOptions = {
    connectionName: name,
    // Back off up to 2 s between attempts and never give up: Redis coming back heals everything.
    retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 2_000),
  };
  const byRole: Record<ConnectionRole, RedisOptions> = {
    request: { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 1 },
    queue: { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 1 },
    durable: { ...common, maxRetriesPerRequest: null },
    subscriber: { ...common, maxRetriesPerRequest: null },
  };
  const redis = new Redis(url, byRole[role]);
  // Many requests and runs at once each send a command or two: what one turn of the event loop
  // issues goes out in one write rather than a system call each. Not ioredis's auto-pipelining,
  // which builds a pipeline object per turn (copying every script BullMQ defined on the
  // connection) and holds a turn's commands back while the previous pipeline is unanswered.
  // A subscriber only ever sends (un)subscriptions.
  if (role !== 'subscriber') coalesceWrites(redis);
  return redis;
}

/** Resolves once the connection is ready, or rejects after `timeoutMs`. */
export async function waitUntilReady(redis: Redis, timeoutMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          cleanup();
          reject(new Error(`Redis was not ready within ${timeoutMs} ms`));
        }, timeoutMs)
      : undefined;
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}
