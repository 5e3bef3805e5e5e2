// `npm run admin -- <command>`: manages accounts, keys, operators and running executions in Redis.
import { createAccountStore } from '@ces/accounts';
import { ConfigError, displayUrl, fields, parseEnv } from '@ces/config';
import { createExecutionQueue, createExecutionStore, createKeySpace, createRedisConnection, waitUntilReady, type ExecutionJobData } from '@ces/store';
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
  return {
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
