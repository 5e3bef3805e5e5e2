import { Redis, type RedisOptions } from 'ioredis';

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
    // Many requests at once each send a command or two: commands issued in the same tick go out in
    // one write, rather than a system call each.
    request: { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 1, enableAutoPipelining: true },
    // BullMQ defines its fifty-odd scripts on the connection it is given, and ioredis copies every
    // script defined on a connection onto each pipeline it builds: here a pipeline per event-loop
    // turn would cost more than the writes it saves.
    queue: { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 1 },
    durable: { ...common, maxRetriesPerRequest: null },
    subscriber: { ...common, maxRetriesPerRequest: null },
  };
  return new Redis(url, byRole[role]);
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
