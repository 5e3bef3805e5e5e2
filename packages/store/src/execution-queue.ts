import { Queue, type JobsOptions, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { NewExecution } from './execution-record.ts';
import type { Shard, ShardLayout } from './shard-layout.ts';
import { EXECUTION_QUEUE, type KeySpace } from './keys.ts';

/** What a queued job carries: the id; the execution record is the source of truth. */
export interface ExecutionJobData {
  executionId: string;
  /**
   * For an instant Choreo, the execution as accepted: a worker may run it from this without
   * reading the record first, and end it only if no worker has taken it meanwhile.
   */
  accepted?: NewExecution;
}

/**
 * Job options for an execution. The job id is the execution id, so a job is never queued twice
 * for one execution. Retries cover infrastructure failures only (a lost Redis, a crash): the
 * run resumes from its checkpoint, and a Choreo's own errors end the execution, not the job.
 *
 * Only what BullMQ must find in the job itself is here. BullMQ stores a job's options as JSON in
 * the job's hash, held by every queued and waiting run (a durable wait holds its job for as long
 * as it waits), and a hash with a value longer than 64 bytes (Redis's hash-max-listpack-value)
 * takes about twice the memory: with the id, these options stay under that. How long to wait
 * before a retry and what to keep of a finished job are the workers' (EXECUTION_JOB_BACKOFF,
 * EXECUTION_JOB_RETENTION).
 */
export const EXECUTION_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
};

/** How long before a failed job is tried again: 0.5 s, doubling. Given to each job as a worker takes it (worker-service.ts). */
export const EXECUTION_JOB_BACKOFF = { type: 'exponential', delay: 500 } as const satisfies JobsOptions['backoff'];

/** What becomes of an execution's job once it has finished: removed when completed, kept a day (at most 1,000) when failed for good. */
export const EXECUTION_JOB_RETENTION = {
  removeOnComplete: { count: 0 },
  removeOnFail: { age: 24 * 3600, count: 1000 },
} satisfies Pick<WorkerOptions, 'removeOnComplete' | 'removeOnFail'>;

export function createExecutionQueue(deps: { connection: Redis; keys: KeySpace }): Queue<ExecutionJobData> {
  return new Queue<ExecutionJobData>(EXECUTION_QUEUE, {
    connection: deps.connection,
    prefix: deps.keys.prefix,
    defaultJobOptions: EXECUTION_JOB_OPTIONS,
  });
}

/** The name every execution's job has. */
export const EXECUTION_JOB_NAME = 'run';

export function enqueueExecution(queue: Queue<ExecutionJobData>, executionId: string, accepted?: NewExecution) {
  return queue.add(EXECUTION_JOB_NAME, accepted ? { executionId, accepted } : { executionId }, { jobId: executionId });
}

/**
 * What BullMQ holds for an execution's job: `held` (waiting, prioritized, delayed or active: a
 * worker has it or will), `failed` (for good), `completed`, or `none` (no job at all).
 */
export type JobHold = 'held' | 'failed' | 'completed' | 'none';

/**
 * The jobs of many executions at once, in one round trip of three look-ups each: does the job's
 * hash exist, and is it in the failed or the completed set. BullMQ's `getJobState` would answer
 * the same, but it finds a waiting job with LPOS, a scan of the wait list: asked of every old
 * execution behind a backlog of B queued runs, it cost Redis O(B) per run and O(B²) in all
 * (20,000 queued runs: 5.5 s of Redis per pass of the reconciler).
 */
export async function jobHolds(redis: Redis, queue: Queue<ExecutionJobData>, executionIds: readonly string[]): Promise<JobHold[]> {
  if (executionIds.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const id of executionIds) {
    pipeline.exists(queue.toKey(id));
    pipeline.zscore(queue.toKey('failed'), id);
    pipeline.zscore(queue.toKey('completed'), id);
  }
  const replies = (await pipeline.exec()) ?? [];
  const answer = (index: number) => {
    const [error, value] = replies[index] ?? [new Error('no reply')];
    if (error) throw error;
    return value;
  };
  return executionIds.map((_, i) => {
    if (answer(3 * i) === 0) return 'none';
    if (answer(3 * i + 1) !== null) return 'failed';
    if (answer(3 * i + 2) !== null) return 'completed';
    return 'held';
  });
}

/**
 * Makes the delayed jobs of these executions due now (runs suspended in a durable wait that has
 * been made due: a call back delivered, a child ended). A job not delayed is left as it is: one
 * still held by the worker suspending its run, which looks for what made it due once it has
 * delayed the job, or one already due. Resolves with the ids whose job it made due.
 */
export async function promoteJobs(queues: Pick<ExecutionQueues, 'of'>, executionIds: readonly string[]): Promise<string[]> {
  // A promotion lost (Redis away, the job not delayed yet) is the reconciler's to make: it finds
  // runs due for a while whose jobs are still delayed. Nothing here fails the end that woke them.
  const promoted = await Promise.all(
    executionIds.map(async (id) => {
      const job = await queues
        .of(id)
        .getJob(id)
        .catch(() => undefined);
      if (job === undefined) return false;
      return job.promote().then(
        () => true,
        () => false,
      );
    }),
  );
  return executionIds.filter((_, index) => promoted[index]);
}

/** The execution queue of every shard: a run's job is on its shard's (shard-layout.ts). */
export interface ExecutionQueues {
  /** The queue of the shard the execution id names. */
  of(executionId: string): Queue<ExecutionJobData>;
  /** The queue of one shard. */
  ofShard(shard: Shard): Queue<ExecutionJobData>;
  /** Every shard's, by shard index, as the layout knows them now. */
  readonly all: readonly Queue<ExecutionJobData>[];
  close(): Promise<void>;
}

/** The queues of a deployment without shards: its one queue. */
export function singleExecutionQueue(queue: Queue<ExecutionJobData>): ExecutionQueues {
  return { of: () => queue, ofShard: () => queue, all: [queue], close: () => queue.close() };
}

/** Each shard's queue, made when first needed: a layout that grows has more. */
export function createExecutionQueues(deps: {
  connection: Redis;
  layout: ShardLayout;
  /** Told of each queue as it is made (to listen for its errors). */
  onCreated?: (queue: Queue<ExecutionJobData>) => void;
}): ExecutionQueues {
  const made: Queue<ExecutionJobData>[] = [];
  const queueOf = (shard: Shard) => {
    let queue = made[shard.index];
    if (queue === undefined) {
      queue = createExecutionQueue({ connection: deps.connection, keys: shard.keys });
      made[shard.index] = queue;
      deps.onCreated?.(queue);
    }
    return queue;
  };
  return {
    of: (executionId) => queueOf(deps.layout.shardOf(executionId)),
    ofShard: queueOf,
    get all() {
      return deps.layout.shards.map(queueOf);
    },
    async close() {
      await Promise.all(made.filter(Boolean).map((queue) => queue.close()));
    },
  };
}

/** The jobs of every shard's queue waiting for a worker, held by one, and delayed, summed. */
export async function queuedJobCounts(queues: ExecutionQueues): Promise<{ waiting: number; active: number; delayed: number }> {
  const counts = await Promise.all(queues.all.map((queue) => queue.getJobCounts('waiting', 'active', 'delayed')));
  const sum = (state: 'waiting' | 'active' | 'delayed') => counts.reduce((total, count) => total + (count[state] ?? 0), 0);
  return { waiting: sum('waiting'), active: sum('active'), delayed: sum('delayed') };
}
