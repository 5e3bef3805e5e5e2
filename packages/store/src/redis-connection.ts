import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { coalesceWrites } from './coalesce-writes.ts';

/**
 * How a connection behaves while Redis is away.
 * - `request`: serves HTTP requests; fails at once so the API can answer 503 instead of hanging,
 *   and, given `commandTimeoutMs`, gives up on a command Redis has not answered by then (a Redis
 *   that stalls without dropping its connections).
 * - `queue`: the API's queue (BullMQ) and the records that must reach Redis before their jobs;
 *   fails at once like `request`, but never times out: a run's record and its job may well be
 *   written after a timeout, and "retry" would then start the run twice.
 * - `durable`: workers and BullMQ; waits for Redis to return and retries, so work carries on.
 * - `subscriber`: pub/sub listening; reconnects and resubscribes by itself.
 */
export type ConnectionRole = 'request' | 'queue' | 'durable' | 'subscriber';

export interface ConnectionOptions {
  /** For `request` connections: longest wait for an answer before the command fails (none without). */
  readonly commandTimeoutMs?: number;
}

const COMMAND_TIMEOUT_MESSAGE = 'Command timed out';

/** Where the service's Redis is: one server (or a primary with replicas) by URL, or a Redis Cluster by some of its nodes. */
export type RedisTarget = { url: string } | { clusterNodes: readonly { host: string; port: number }[] };

/** The target a configuration names: the Cluster when its nodes are given, else the URL. */
export function redisTarget(config: { REDIS_URL: string; REDIS_CLUSTER_NODES?: readonly { host: string; port: number }[] | undefined }): RedisTarget {
  return config.REDIS_CLUSTER_NODES ? { clusterNodes: config.REDIS_CLUSTER_NODES } : { url: config.REDIS_URL };
}

/**
 * A connection to the service's Redis. A Cluster connection is typed as a Redis one: every key of
 * the service carries the prefix's hash tag, so every command and script a caller sends concerns
 * one slot, which the Cluster client routes (MOVED, ASK, failover) and answers as one server
 * would; the store stays one code path. Commands without a key (INFO, SCAN) reach one node only.
 */
export function createRedisConnection(target: RedisTarget | string, role: ConnectionRole, name?: string, options: ConnectionOptions = {}): Redis {
  const common: RedisOptions = {
    connectionName: name,
    // Back off up to 2 s between attempts and never give up: Redis coming back heals everything.
    retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 2_000),
  };
  const byRole: Record<ConnectionRole, RedisOptions> = {
    // A timer per command (0.3 µs) against a request hanging for as long as Redis stalls.
    request: {
      ...common,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      ...(options.commandTimeoutMs ? { commandTimeout: options.commandTimeoutMs } : {}),
    },
    queue: { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 1 },
    durable: { ...common, maxRetriesPerRequest: null },
    subscriber: { ...common, maxRetriesPerRequest: null },
  };
  const resolved = typeof target === 'string' ? { url: target } : target;
  if ('clusterNodes' in resolved) return createClusterConnection(resolved.clusterNodes, byRole[role], role === 'subscriber');
  const redis = new Redis(resolved.url, byRole[role]);
  // Many requests and runs at once each send a command or two: what one turn of the event loop
  // issues goes out in one write rather than a system call each. Not ioredis's auto-pipelining,
  // which builds a pipeline object per turn (copying every script BullMQ defined on the
  // connection) and holds a turn's commands back while the previous pipeline is unanswered.
  // A subscriber only ever sends (un)subscriptions.
  if (role !== 'subscriber') coalesceWrites(redis);
  return redis;
}

function createClusterConnection(nodes: readonly { host: string; port: number }[], nodeOptions: RedisOptions, subscriber: boolean): Redis {
  // The Cluster reconnects its nodes by its own strategy, and queues while offline for them all.
  const { enableOfflineQueue, retryStrategy: _reconnectedByTheCluster, ...perNode } = nodeOptions;
  const clusterOptions: ClusterOptions = {
    redisOptions: perNode,
    // While a primary fails over, the slot has no server for a second or two: requests fail at
    // once (as with one Redis away), the rest wait and retry.
    enableOfflineQueue: enableOfflineQueue ?? true,
    clusterRetryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 2_000),
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 200,
    maxRedirections: 32,
    slotsRefreshTimeout: 2_000,
    // Failover moves a slot to the promoted replica: the client learns it from the MOVED replies
    // and from this refresh.
    slotsRefreshInterval: 5_000,
    // A sharded subscription (pub-sub.ts) is made on the node that serves its channel's slot, and
    // follows the slot when it moves.
    ...(subscriber ? { shardedSubscribers: true } : {}),
  };
  const cluster = new Cluster([...nodes], clusterOptions);
  // A duplicate is BullMQ's blocking connection for a worker. When a BZPOPMIN outlasts its
  // timeout (a failover), BullMQ disconnects that connection and awaits its connect(). ioredis
  // runs a ready check (CLUSTER INFO) in connect(); if the check errs or finds the cluster
  // failed, which is likely in the second after a primary's death, it reconnects without ever
  // settling that promise, and the worker stops taking jobs for good. Without the check, connect()
  // settles once the slots are known; a command the cluster cannot serve yet is retried
  // (retryDelayOnClusterDown, retryDelayOnFailover) or fails, and BullMQ waits again.
  const duplicate = cluster.duplicate.bind(cluster);
  cluster.duplicate = ((startupNodes?: Parameters<Cluster['duplicate']>[0], options?: ClusterOptions) =>
    duplicate(startupNodes, { ...options, enableReadyCheck: false })) as Cluster['duplicate'];
  return cluster as unknown as Redis;
}

/** Whether `error` (or one it was caused by) is a command that Redis did not answer in time. */
export function isRedisCommandTimeout(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current.message === COMMAND_TIMEOUT_MESSAGE) return true;
  }
  return false;
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
