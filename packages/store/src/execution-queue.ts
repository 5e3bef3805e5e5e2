import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { NewExecution } from './execution-record.ts';
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
 */
export const EXECUTION_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 500 },
  removeOnComplete: true,
  removeOnFail: { age: 24 * 3600, count: 1000 },
};

export function createExecutionQueue(deps: { connection: Redis; keys: KeySpace }): Queue<ExecutionJobData> {
  return new Queue<ExecutionJobData>(EXECUTION_QUEUE, {
    connection: deps.connection,
    prefix: deps.keys.prefix,
    defaultJobOptions: EXECUTION_JOB_OPTIONS,
  });
}

export function enqueueExecution(queue: Queue<ExecutionJobData>, executionId: string, accepted?: NewExecution) {
  return queue.add('run', accepted ? { executionId, accepted } : { executionId }, { jobId: executionId });
}
