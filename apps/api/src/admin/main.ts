// `npm run admin -- <command>`: manages accounts, keys, operators and running executions in Redis.
import { resolve } from 'node:path';
import { createAccountStore } from '@ces/accounts';
import { ConfigError, displayClusterNodes, displayUrl, fields, parseEnv } from '@ces/config';
import { readServiceRedisUrl, readServiceSecretsKey } from '@ces/local-runtime';
import {
  createAccountChoreoStore,
  createScheduleStore,
  createAccountReservations,
  createExecutionQueues,
  createExecutionStore,
  createKeySpace,
  createShardedExecutionStore,
  openShardLayout,
  createPresetStore,
  createRedisConnection,
  type RedisTarget,
  createSecretCipher,
  createTokenStore,
  resealExecutionSecrets,
  createWebhookStore,
  waitUntilReady,
  type ExecutionQueues,
} from '@ces/store';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { AdminError, EXIT } from './admin-error.ts';
import { consoleIo } from './admin-io.ts';
import { runAdmin } from './admin-cli.ts';

const schema = z.object({
  // No default: without it, the Redis `npm start` wrote under DATA_DIR, never a guess.
  REDIS_URL: fields.optionalRedisUrl,
  REDIS_CLUSTER_NODES: fields.redisClusterNodes,
  REDIS_PREFIX: fields.redisPrefix,
  RETENTION_SECONDS: fields.retentionSeconds,
  /** As `npm start` reads it: relative to the repository. */
  DATA_DIR: z.string().default('.data'),
  SECRETS_KEY: fields.secretsKey,
  SECRETS_KEY_PREVIOUS: fields.previousSecretsKeys,
  /** As the API's: a preset put here is held to the same number. */
  MAX_PRESETS_PER_ACCOUNT: z.coerce.number().int().min(0).default(1000),
});

const io = consoleIo();
let config: z.infer<typeof schema>;
try {
  config = parseEnv(schema, process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  io.err(`admin: ${error.message}`);
  process.exit(EXIT.usage);
}

const root = resolve(import.meta.dirname, '../../../..');

/**
 * REDIS_CLUSTER_NODES, else REDIS_URL, else the one `npm start` wrote under DATA_DIR, with where
 * it was read and how to show it, for messages.
 */
function redisToUse(): { target: RedisTarget; shown: string; from: string } {
  if (config.REDIS_CLUSTER_NODES) {
    const target = { clusterNodes: config.REDIS_CLUSTER_NODES };
    return { target, shown: `the Redis Cluster at ${displayClusterNodes(target.clusterNodes)}`, from: 'REDIS_CLUSTER_NODES' };
  }
  if (config.REDIS_URL) return { target: { url: config.REDIS_URL }, shown: displayUrl(config.REDIS_URL, 'REDIS_URL'), from: 'REDIS_URL' };
  const dataDir = resolve(root, config.DATA_DIR);
  const written = readServiceRedisUrl(dataDir);
  if (!written) {
    throw new AdminError(`no Redis to use: set REDIS_URL, or start the service with npm start (it writes its Redis URL under ${dataDir})`);
  }
  return { target: { url: written.url }, shown: displayUrl(written.url, 'REDIS_URL'), from: `written by npm start in ${written.file}` };
}

/**
 * SECRETS_KEY; else the key `npm start` wrote under DATA_DIR (the one its API and workers seal
 * with); undefined when neither exists.
 */
function secretsKeyToUse(): Buffer | undefined {
  if (config.SECRETS_KEY) return config.SECRETS_KEY;
  const written = readServiceSecretsKey(resolve(root, config.DATA_DIR));
  if (!written) return undefined;
  const parsed = fields.secretsKey.safeParse(written.key);
  if (!parsed.success) throw new AdminError(`the secrets key written by npm start in ${written.file} is not a valid key`);
  return parsed.data;
}

let redis: Redis | undefined;
let queues: ExecutionQueues | undefined;

const status = await runAdmin(process.argv.slice(2), io, async (json) => {
  const keys = createKeySpace(config.REDIS_PREFIX);
  const { target, shown, from } = redisToUse();
  const connection = createRedisConnection(target, 'request', 'admin');
  redis = connection;
  // Quiet: an unreachable Redis is reported once, below, not on every retry.
  connection.on('error', () => {});
  await waitUntilReady(connection, 5_000).catch(() => {
    throw new AdminError(`cannot reach Redis at ${shown} (${from}); is the service running?`);
  });
  // The admin command line starts no run: it reads the shards there are and registers none.
  const layout = await openShardLayout(connection, keys, 1);
  const reservations = layout.grows ? createAccountReservations({ redis: connection, layout, retentionSeconds: config.RETENTION_SECONDS }) : undefined;
  const secretsKey = secretsKeyToUse();
  const cipher = secretsKey ? createSecretCipher({ current: secretsKey, previous: config.SECRETS_KEY_PREVIOUS }) : undefined;
  return {
    ...(cipher
      ? {
          presets: createPresetStore({ redis: connection, keys, cipher, maxPresetsPerAccount: config.MAX_PRESETS_PER_ACCOUNT }),
          tokens: createTokenStore({ redis: connection, keys, cipher }),
          webhooks: createWebhookStore({ redis: connection, keys, cipher, maxWebhooksPerAccount: 0 }),
          resealExecutions: async () => {
            let resealed = 0;
            for (const shard of layout.shards) resealed += await resealExecutionSecrets({ redis: connection, keys: shard.keys, cipher });
            return resealed;
          },
        }
      : {}),
    accounts: createAccountStore({ redis: connection, keys }),
    executions: createShardedExecutionStore(
      layout,
      (shard) =>
        createExecutionStore({
          redis: connection,
          keys: shard.keys,
          retentionSeconds: config.RETENTION_SECONDS,
          ...(reservations ? { reservations } : {}),
        }),
      reservations,
    ),
    choreos: createAccountChoreoStore({ redis: connection, keys }),
    schedules: createScheduleStore({ redis: connection, keys }),
    queues: () => (queues ??= createExecutionQueues({ connection, layout })),
    io,
    json,
  };
});

await queues?.close().catch(() => {});
if (redis) await redis.quit().catch(() => redis?.disconnect());
process.exit(status);
