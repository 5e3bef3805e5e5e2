import { z } from 'zod';

/** Field builders shared by the apps' schemas, so that a variable means the same everywhere. */

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

export const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const boolean = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
    .transform((value) => value === 'true' || value === '1' || value === 'yes')
    .default(fallback);

/** The message never repeats the value: a Redis URL may carry its password. */
const redisUrlValue = z
  .string()
  .refine((value) => /^rediss?:\/\//.test(value) && URL.canParse(value), 'expected a redis:// or rediss:// URL (host, and a numeric port if any)');

export const redisUrl = redisUrlValue.default('redis://127.0.0.1:6379');

/** A Redis URL for a program that finds its Redis otherwise when it is not set. */
export const optionalRedisUrl = redisUrlValue.optional();

/**
 * Every Redis key of the service starts with this prefix. The braces make it a Redis Cluster
 * hash tag, so all keys land in one slot and multi-key scripts stay legal.
 */
export const redisPrefix = z
  .string()
  .regex(/^\{[A-Za-z0-9_.:-]+\}$/, 'expected a hash tag such as {ces}')
  .default('{ces}');

/** The specification promises at least five minutes of status after completion. */
export const retentionSeconds = z.coerce
  .number()
  .int()
  .min(300, 'must be at least 300: completed executions stay readable for five minutes at least')
  .default(3600);

/** How long a worker's stop may take: its runs hand back by then. The supervisor waits longer. */
export const shutdownGraceSeconds = z.coerce.number().positive().max(3600).default(45);

export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');
