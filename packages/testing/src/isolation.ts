import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A fresh Redis key prefix for one test file. It is a Cluster hash tag like the production
 * prefix, so scripts that touch several keys behave the same in tests.
 */
export function isolatedPrefix(label = 't'): string {
  return `{${label}-${randomBytes(6).toString('hex')}}`;
}

/** Deletes every key under a prefix, so a test file leaves nothing behind in a shared Redis. */
export async function deleteKeysWithPrefix(redis: Redis, prefix: string): Promise<void> {
  const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}
