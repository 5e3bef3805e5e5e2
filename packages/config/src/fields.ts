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

/**
 * REDIS_CLUSTER_NODES: some nodes of a Redis Cluster as `host:port,host:port,…` (the client finds
 * the rest); when set, it is used instead of REDIS_URL.
 */
export const redisClusterNodes = z
  .string()
  .transform((value, context) => {
    const nodes = value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map((part) => {
        const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):(\d{1,5})$/.exec(part);
        const port = match ? Number(match[2]) : 0;
        return match && port > 0 && port < 65536 ? { host: (match[1] as string).replace(/^\[|\]$/g, ''), port } : undefined;
      });
    if (nodes.length === 0 || nodes.some((node) => node === undefined)) {
      context.addIssue({ code: 'custom', message: 'expected host:port of one node or more, separated by commas' });
      return z.NEVER;
    }
    return nodes as { host: string; port: number }[];
  })
  .optional();

/**
 * REDIS_REPLICA_ACKS: how many replicas must hold an accepted run, a checkpoint and an end before
 * they are acknowledged (Redis WAIT); 0, the default, acknowledges what the primary holds.
 */
export const redisReplicaAcks = z.coerce.number().int().min(0).max(16).default(0);

/** REDIS_REPLICA_ACK_TIMEOUT_MS: how long a write waits for those replicas before it fails. */
export const redisReplicaAckTimeoutMs = z.coerce.number().int().min(10).max(60_000).default(2_000);

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

/**
 * QUEUE_SHARDS: how many shards new runs are spread over, each its own hash tag with its own queue,
 * records and indexes (on a Cluster, each shard's slot on a different primary, up to their count).
 * Growing it keeps every run where it is; every process should have the same value.
 */
export const queueShards = z.coerce.number().int().min(1).max(256).default(1);

/** The specification promises at least five minutes of status after completion. */
export const retentionSeconds = z.coerce
  .number()
  .int()
  .min(300, 'must be at least 300: completed executions stay readable for five minutes at least')
  .default(3600);

/** How long a worker's stop may take: its runs hand back by then. The supervisor waits longer. */
export const shutdownGraceSeconds = z.coerce.number().positive().max(3600).default(45);

export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

/**
 * A 32-byte key as SECRETS_KEY gives it: base64 (44 characters, or 43 without padding, base64url
 * too) or 64 hex digits. The message never repeats the value.
 */
function parseKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed.replace(/=$/, '').replaceAll('+', '-').replaceAll('/', '_'), 'base64url');
  return bytes.length === 32 ? bytes : undefined;
}

const KEY_SHAPE = 'expected 32 bytes as base64 (43 or 44 characters) or 64 hex digits, such as `openssl rand -base64 32` prints';

/** The key that seals accounts' secrets at rest (presets, stored tokens); optional. */
export const secretsKey = z
  .string()
  .transform((value, context) => {
    const key = parseKey(value);
    if (!key) context.addIssue({ code: 'custom', message: KEY_SHAPE });
    return key ?? Buffer.alloc(0);
  })
  .optional();

/** Keys a rotation replaced, comma-separated: values sealed with them are still read. */
export const previousSecretsKeys = z
  .string()
  .transform((value, context) => {
    const keys = value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map(parseKey);
    if (keys.some((key) => key === undefined)) context.addIssue({ code: 'custom', message: `each key ${KEY_SHAPE}` });
    return keys.filter((key): key is Buffer => key !== undefined);
  })
  .default([]);

/**
 * The service's public address, as clients reach the API (PUBLIC_BASE_URL): https only, since the
 * API serves clients over HTTPS only (behind TRUST_PROXY, its proxy does); its trailing slashes
 * dropped. Optional: without it, each run's address comes from its request.
 */
export const publicBaseUrl = z
  .string()
  .refine((url) => URL.canParse(url) && new URL(url).protocol === 'https:', 'expected an https:// URL such as https://choreos.example.com')
  .transform((url) => url.replace(/\/+$/, ''))
  .optional();
