import { fields, parseEnv } from '@ces/config';
import { z } from 'zod';

/** Every variable the API reads, validated once at start. */
export const apiConfigSchema = z
  .object({
    PORT: fields.port(8443),
    BIND_ADDRESS: z.string().default('0.0.0.0'),
    REDIS_URL: fields.redisUrl,
    REDIS_CLUSTER_NODES: fields.redisClusterNodes,
    REDIS_REPLICA_ACKS: fields.redisReplicaAcks,
    REDIS_REPLICA_ACK_TIMEOUT_MS: fields.redisReplicaAckTimeoutMs,
    REDIS_PREFIX: fields.redisPrefix,
    QUEUE_SHARDS: fields.queueShards,
    REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(50).max(600_000).default(5000),
    ACCOUNTS_FILE: z.string().optional(),
    SERVICE_HOST: z
      .string()
      .regex(/^[a-z0-9.-]+$/i, 'expected a host name such as choreos.example.com')
      .default('localhost'),
    CHOREOS_DIR: z.string().default('choreos'),
    DATA_DIR: z.string().default('.data'),
    SYNC_WAIT_SECONDS: z.coerce.number().positive().max(600).default(30),
    RETENTION_SECONDS: fields.retentionSeconds,
    EXECUTION_TIME_LIMIT_SECONDS: fields.positiveInt(900),
    MAX_RUNNING_PER_ACCOUNT: z.coerce.number().int().min(0).default(1000),
    MAX_STORED_BYTES_PER_ACCOUNT: z.coerce
      .number()
      .int()
      .min(0)
      .default(1024 * 1024 * 1024),
    // Each account's own Choreos (PUT /choreos/<id>): how many, and their bytes together.
    MAX_CHOREOS_PER_ACCOUNT: z.coerce.number().int().min(0).default(500),
    MAX_CHOREO_BYTES_PER_ACCOUNT: z.coerce
      .number()
      .int()
      .min(0)
      .default(16 * 1024 * 1024),
    MAX_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(0).default(20),
    MAX_AUTH_FAILURES_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(0).default(300),
    BODY_LIMIT_BYTES: fields.positiveInt(1024 * 1024),
    TLS_CERT_FILE: z.string().optional(),
    TLS_KEY_FILE: z.string().optional(),
    TRUST_PROXY: fields.boolean(false),
    /** Seals presets and stored tokens at rest; without it those features answer 503. */
    SECRETS_KEY: fields.secretsKey,
    /** Keys replaced by a rotation, still read until `npm run admin -- secrets reseal` has run. */
    SECRETS_KEY_PREVIOUS: fields.previousSecretsKeys,
    MAX_PRESETS_PER_ACCOUNT: z.coerce.number().int().min(0).default(1000),
    /** Webhooks one account may keep (0: no limit): each is read at every end of the account's runs. */
    MAX_WEBHOOKS_PER_ACCOUNT: z.coerce.number().int().min(0).default(20),
    /** Schedules one account may keep: each costs Redis memory and every worker's firer its ticks. */
    MAX_SCHEDULES_PER_ACCOUNT: z.coerce.number().int().min(0).default(1000),
    /** The public address runs' URLs are made under; without it, https:// and each run's request Host. */
    PUBLIC_BASE_URL: fields.publicBaseUrl,
    LOG_LEVEL: fields.logLevel,
    /** How often an open run events stream gets a heartbeat comment, so that proxies keep it open. */
    EVENTS_HEARTBEAT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
    /** How long a console session lasts from its sign-in. */
    CONSOLE_SESSION_MINUTES: z.coerce.number().int().min(1).max(10_080).default(480),
  })
  .superRefine((config, context) => {
    if (Boolean(config.TLS_CERT_FILE) !== Boolean(config.TLS_KEY_FILE)) {
      const missing = config.TLS_CERT_FILE ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE';
      context.addIssue({ code: 'custom', path: [missing], message: 'TLS_CERT_FILE and TLS_KEY_FILE go together' });
    }
    if (config.SECRETS_KEY_PREVIOUS.length > 0 && !config.SECRETS_KEY) {
      context.addIssue({ code: 'custom', path: ['SECRETS_KEY'], message: 'SECRETS_KEY_PREVIOUS needs a current SECRETS_KEY' });
    }
  });

export type ApiConfig = z.infer<typeof apiConfigSchema>;

export function loadApiConfig(env: Record<string, string | undefined>): ApiConfig {
  return parseEnv(apiConfigSchema, env);
}
