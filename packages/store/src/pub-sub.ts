import type { Redis } from 'ioredis';

/**
 * The pub/sub of run events and ends. On a Redis Cluster it is sharded (SPUBLISH, SSUBSCRIBE): a
 * message stays with the shard of its channel's slot, where the subscribers listen, rather than
 * crossing the cluster bus to every node, which costs every node the message and, on the bus's
 * links, holds a small one back up to a delayed ACK (40 ms). On one Redis it is plain PUBLISH.
 * Rare announcements (terminations, credential changes) stay plain on a Cluster too.
 */
export interface ShardedPubSub {
  /** The command a script publishes with. */
  readonly publish: 'PUBLISH' | 'SPUBLISH';
  subscribe(subscriber: Redis, ...channels: string[]): Promise<unknown>;
  unsubscribe(subscriber: Redis, ...channels: string[]): Promise<unknown>;
  /** Calls `listener` with the messages of the channels subscribed to here. */
  onMessage(subscriber: Redis, listener: (channel: string, message: string) => void): void;
  offMessage(subscriber: Redis, listener: (channel: string, message: string) => void): void;
}

/** Whether `redis` is an ioredis Cluster client. */
export function isCluster(redis: Redis): boolean {
  return (redis as { isCluster?: boolean }).isCluster === true;
}

export function publishCommand(redis: Redis): ShardedPubSub['publish'] {
  return isCluster(redis) ? 'SPUBLISH' : 'PUBLISH';
}

/** Over `redis`; on a Cluster, a subscriber must be made with `shardedSubscribers` (createRedisConnection's 'subscriber'). */
export function shardedPubSub(redis: Redis): ShardedPubSub {
  const sharded = isCluster(redis);
  const subscribesSharded = (subscriber: Redis) => {
    if ((subscriber as { options?: { shardedSubscribers?: boolean } }).options?.shardedSubscribers !== true)
      throw new Error('a Cluster subscriber needs the option shardedSubscribers: make it with createRedisConnection(…, "subscriber")');
  };
  return {
    publish: publishCommand(redis),
    subscribe: async (subscriber, ...channels) => {
      if (!sharded) return subscriber.subscribe(...channels);
      subscribesSharded(subscriber);
      return subscriber.ssubscribe(...channels);
    },
    unsubscribe: (subscriber, ...channels) => (sharded ? subscriber.sunsubscribe(...channels) : subscriber.unsubscribe(...channels)),
    onMessage: (subscriber, listener) => {
      subscriber.on(sharded ? 'smessage' : 'message', listener);
    },
    offMessage: (subscriber, listener) => {
      subscriber.off(sharded ? 'smessage' : 'message', listener);
    },
  };
}
