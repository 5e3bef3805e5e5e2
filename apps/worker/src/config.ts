import { fields, parseEnv } from '@ces/config';
import { z } from 'zod';

/** Every variable a worker reads, validated once at start. */
export const workerConfigSchema = z
  .object({
    REDIS_URL: fields.redisUrl,
    REDIS_CLUSTER_NODES: fields.redisClusterNodes,
    REDIS_REPLICA_ACKS: fields.redisReplicaAcks,
    REDIS_REPLICA_ACK_TIMEOUT_MS: fields.redisReplicaAckTimeoutMs,
    REDIS_PREFIX: fields.redisPrefix,
    QUEUE_SHARDS: fields.queueShards,
    WORKER_HOST: z.string().optional(),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
    /**
     * Most executions of one account that all workers together run at once (0: no limit), so that one
     * account's backlog cannot hold every worker. The same value on every worker.
     */
    MAX_EXECUTING_PER_ACCOUNT: z.coerce.number().int().min(0).max(100_000).default(0),
    /**
     * Shortest wait that suspends its run (a durable wait: stored, no worker slot held, taken again
     * when due) rather than waiting in the worker. 5 s by default: a suspension costs a few Redis
     * scripts, a delayed job and a take with a record read, worth it only when the slot would
     * otherwise sit idle for seconds; shorter waits keep their millisecond precision in-process.
     */
    DURABLE_WAIT_THRESHOLD_MS: z.coerce.number().int().min(100).max(86_400_000).default(5_000),
    /** Longer by default than an HTTP step's timeout, so that a step started just before a stop ends. */
    WORKER_SHUTDOWN_GRACE_SECONDS: fields.shutdownGraceSeconds,
    /** Port of the worker's own health and metrics server; 0 picks a free one, unset turns it off. */
    WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    RETENTION_SECONDS: fields.retentionSeconds,
    /** The shipped catalogue, where `choreo.run` steps find the Choreos they run as children. */
    CHOREOS_DIR: z.string().default('choreos'),
    /**
     * Bytes an account's executions may store over the retention period (0: no limit): the API's
     * value, since a child execution's record counts like any run's.
     */
    MAX_STORED_BYTES_PER_ACCOUNT: z.coerce
      .number()
      .int()
      .min(0)
      .default(1024 * 1024 * 1024),
    /**
     * Each execution's step history keeps its first STEP_HISTORY_FIRST events and its last
     * STEP_HISTORY_LAST, counting those dropped between (one event per attempt of each step).
     */
    STEP_HISTORY_FIRST: z.coerce.number().int().min(0).max(100_000).default(100),
    STEP_HISTORY_LAST: z.coerce.number().int().min(1).max(100_000).default(900),
    /** Lets the HTTP step reach loopback and private networks (off: a Choreo could probe the inside). */
    HTTP_ALLOW_PRIVATE_NETWORKS: fields.boolean(false),
    HTTP_STEP_TIMEOUT_MS: fields.positiveInt(30_000),
    HTTP_MAX_RESPONSE_BYTES: fields.positiveInt(5 * 1024 * 1024),
    /** Opens the inputs runs took from presets and the stored tokens; the API's same keys. */
    SECRETS_KEY: fields.secretsKey,
    SECRETS_KEY_PREVIOUS: fields.previousSecretsKeys,
    /**
     * The address clients reach the API at, for the URLs steps hand out (the Callback Choreos'
     * callback URLs, `control.waitForCallback`'s), used only for runs their API recorded none for
     * (each run's own is decided at accept). The same value on every worker; without it such a run
     * has no public URL, and steps that need one fail.
     */
    PUBLIC_BASE_URL: fields.publicBaseUrl,
    LOG_LEVEL: fields.logLevel,
    /** The API's values, for the runs schedules start: the same limits as a run the API accepts. */
    EXECUTION_TIME_LIMIT_SECONDS: fields.positiveInt(900),
    MAX_RUNNING_PER_ACCOUNT: z.coerce.number().int().min(0).default(1000),
    /**
     * How long a schedule a firer claimed is its alone: a firer that dies gives its ticks up after
     * this, so it bounds how late a dead firer's tick starts elsewhere.
     */
    SCHEDULE_LEASE_MS: z.coerce.number().int().min(500).max(15_000).default(5_000),
    /** Longest wait between two looks at the due schedules: how late a tick may start at most. */
    SCHEDULE_POLL_MS: z.coerce.number().int().min(10).max(5_000).default(200),
    /** The first delay before a failed webhook delivery is sent again; each delay after it doubles (with jitter). */
    WEBHOOK_RETRY_INITIAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(5_000),
    /** How long a webhook delivery is tried, from its event (or its redelivery); then it is dead. */
    WEBHOOK_RETRY_MAX_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(30 * 86_400)
      .default(86_400),
    /** Webhook deliveries one worker sends at once, apart from its runs. */
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(128),
    /**
     * Of those, most to one subscription at once, and a quarter of it the most that may go unanswered
     * for a second: a slow or dead endpoint holds no more slots than this, and soon a quarter.
     */
    WEBHOOK_CONCURRENCY_PER_WEBHOOK: z.coerce.number().int().min(1).max(1000).default(64),
    /** Longest wait between two looks at the webhook outbox: how late a delivery may start at most. */
    WEBHOOK_DISPATCH_POLL_MS: z.coerce.number().int().min(5).max(5_000).default(50),
    /** Most due schedules one claim takes; a burst of ticks due together is fired in batches of this. */
    SCHEDULE_BATCH: z.coerce.number().int().min(1).max(10_000).default(500),
    /**
     * How long before its tick a schedule is claimed: a burst of ticks due together is already held
     * when it falls due, and each tick starts at its time.
     */
    SCHEDULE_LOOKAHEAD_MS: z.coerce.number().int().min(0).max(5_000).default(1_000),
    /** Most schedules one worker holds at once (waiting for their ticks or firing them); the rest are other workers'. */
    SCHEDULE_MOST_HELD: z.coerce.number().int().min(1).max(100_000).default(5_000),
  })
  .check((context) => {
    // A worker that dies holding a schedule claimed ahead gives it up this long after: its tick then
    // starts on another worker within the 15 s a schedule promises.
    const { SCHEDULE_LEASE_MS, SCHEDULE_LOOKAHEAD_MS } = context.value;
    if (SCHEDULE_LEASE_MS + SCHEDULE_LOOKAHEAD_MS > 15_000) {
      context.issues.push({
        code: 'custom',
        path: ['SCHEDULE_LOOKAHEAD_MS'],
        message: `with SCHEDULE_LEASE_MS ${SCHEDULE_LEASE_MS}, at most ${15_000 - SCHEDULE_LEASE_MS}: the two together bound how late a dead worker's tick starts elsewhere (15 s)`,
        input: SCHEDULE_LOOKAHEAD_MS,
      });
    }
  });

export type WorkerConfig = z.infer<typeof workerConfigSchema>;

export function loadWorkerConfig(env: Record<string, string | undefined>): WorkerConfig {
  return parseEnv(workerConfigSchema, env);
}
