// `npm run admin -- <command>`: manages accounts, keys, operators and running executions in Redis.
import { createAccountStore } from '@ces/accounts';
import { ConfigError, displayUrl, fields, parseEnv } from '@ces/config';
import {
  createExecutionQueue,
  createExecutionStore,
  createKeySpace,
  createPresetStore,
  createRedisConnection,
  createSecretCipher,
  createTokenStore,
  waitUntilReady,
  type ExecutionJobData,
} from '@ces/store';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { AdminError, EXIT } from './admin-error.ts';
import { consoleIo } from './admin-io.ts';
import { runAdmin } from './admin-cli.ts';

const schema = z.object({
  REDIS_URL: fields.redisUrl,
  REDIS_PREFIX: fields.redisPrefix,
  RETENTION_SECONDS: fields.retentionSeconds,
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

let redis: Redis | undefined;
let queue: Queue<ExecutionJobData> | undefined;

const status = await runAdmin(process.argv.slice(2), io, async (json) => {
  const keys = createKeySpace(config.REDIS_PREFIX);
  const connection = createRedisConnection(config.REDIS_URL, 'request', 'admin');
  redis = connection;
  // Quiet: an unreachable Redis is reported once, below, not on every retry.
  connection.on('error', () => {});
  await waitUntilReady(connection, 5_000).catch(() => {
    throw new AdminError(`cannot reach Redis at ${displayUrl(config.REDIS_URL, 'REDIS_URL')} (REDIS_URL)`);
  });
  const cipher = config.SECRETS_KEY ? createSecretCipher({ current: config.SECRETS_KEY, previous: config.SECRETS_KEY_PREVIOUS }) : undefined;
  return {
    ...(cipher
      ? {
          presets: createPresetStore({ redis: connection, keys, cipher, maxPresetsPerAccount: config.MAX_PRESETS_PER_ACCOUNT }),
          tokens: createTokenStore({ redis: connection, keys, cipher }),
        }
      : {}),
    accounts: createAccountStore({ redis: connection, keys }),
    executions: createExecutionStore({ redis: connection, keys, retentionSeconds: config.RETENTION_SECONDS }),
    queue: () => (queue ??= createExecutionQueue({ connection, keys })),
    io,
    json,
  };
});

await queue?.close().catch(() => {});
if (redis) await redis.quit().catch(() => redis?.disconnect());
process.exit(status);
