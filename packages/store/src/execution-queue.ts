import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { EXECUTION_QUEUE, type KeySpace } from './keys.ts';

/** What a queued job carries: only the id; everything else lives in the execution record. */
export interface ExecutionJobData {
  executionId: string;
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

export function enqueueExecution(queue: Queue<ExecutionJobData>, executionId: string) {
  return queue.add('run', { executionId }, { jobId: executionId });
}
