import { createExecutionStore, createKeySpace, type ExecutionStore, type KeySpace, type StepHistoryBounds } from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, inject } from 'vitest';

/**
 * An execution store on the test Redis, under a key prefix of its own, for the tests of one
 * `describe`: its keys are deleted and its connection closed after them.
 */
export function storeOnRedis(
  name: string,
  retentionSeconds = 300,
  stepHistoryBounds?: StepHistoryBounds,
): { prefix: string; keys: KeySpace; redis: Redis; store: ExecutionStore } {
  const prefix = isolatedPrefix(name);
  const keys = createKeySpace(prefix);
  const redis = new Redis(inject('redisUrl'));
  const store = createExecutionStore({ redis, keys, retentionSeconds, ...(stepHistoryBounds ? { stepHistoryBounds } : {}) });
  afterAll(async () => {
    await deleteKeysWithPrefix(redis, prefix);
    redis.disconnect();
  });
  return { prefix, keys, redis, store };
}
