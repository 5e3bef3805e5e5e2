/**
 * What a worker knows of its job locks. BullMQ renews them in the background and says which
 * renewals succeeded and which failed; a worker whose lock may have lapsed must not start another
 * step, because once the lock has lapsed the stall check gives the job to another worker, which
 * resumes from the last checkpoint: both would then run the same step. A lock counts as held while
 * its last confirmation (the take, or a renewal that succeeded) is younger than the lock's
 * duration less a margin, and no renewal has failed since.
 */
export interface JobLockWatch {
  /** A job taken under `token` at `at` (epoch ms): its lock was set then. */
  taken(jobId: string, token: string, at: number): void;
  renewed(jobIds: readonly string[]): void;
  renewalFailed(jobIds: readonly string[]): void;
  /** The take under `token` is over; a newer take of the same job is left alone. */
  released(jobId: string, token: string): void;
  holds(jobId: string): boolean;
}

/** Time for the clock to move, and a renewal's answer to arrive, between Redis and this process. */
export const LOCK_MARGIN_MS = 500;

export function createJobLockWatch(options: { lockDurationMs: number; now?: () => number }): JobLockWatch {
  const now = options.now ?? Date.now;
  const locks = new Map<string, { token: string; confirmedAt: number }>();
  return {
    taken(jobId, token, at) {
      locks.set(jobId, { token, confirmedAt: at });
    },
    renewed(jobIds) {
      const at = now();
      for (const jobId of jobIds) {
        const lock = locks.get(jobId);
        if (lock) lock.confirmedAt = at;
      }
    },
    renewalFailed(jobIds) {
      for (const jobId of jobIds) {
        const lock = locks.get(jobId);
        if (lock) lock.confirmedAt = -Infinity;
      }
    },
    released(jobId, token) {
      if (locks.get(jobId)?.token === token) locks.delete(jobId);
    },
    holds(jobId) {
      const lock = locks.get(jobId);
      return lock !== undefined && now() - lock.confirmedAt < options.lockDurationMs - LOCK_MARGIN_MS;
    },
  };
}
