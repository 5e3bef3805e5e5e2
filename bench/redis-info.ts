import type { Redis } from 'ioredis';

/** One section of `INFO` as field → value, the way Redis prints it (`field:value` lines). */
export async function redisInfo(redis: Redis, section: string): Promise<Map<string, string>> {
  const fields = new Map<string, string>();
  for (const line of (await redis.info(section)).split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return fields;
}
