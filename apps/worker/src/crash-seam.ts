import { STORE_CRASH_SEAMS, type StoreCrashSeam } from '@ces/store';

/**
 * The points between a run's two writes where a worker that dies leaves Redis and BullMQ apart:
 * - `taken`: the take is stored (lease, host), its job active, no step run yet;
 * - `checkpointed`: a step's checkpoint is stored, the next step not started;
 * - `suspended`: a durable wait is stored, its job still active rather than delayed;
 * - `handed-back`: the run is handed back at shutdown, its job still active rather than waiting;
 * - `parent-due`: a child's end is stored, its suspended parent made due in Redis, the parent's
 *   job still delayed;
 * - `ended`: the terminal status is stored, its job still active rather than completed.
 * docs/architecture.md ("Crash seams") says what repairs each; tests hold a worker at one
 * (`WORKER_TEST_HOLD_AT`) and kill it there.
 */
export type WorkerCrashSeam = 'taken' | 'checkpointed' | 'suspended' | 'handed-back' | 'parent-due' | 'ended';

/** The worker's own and the store's (with shards: a reservation and the shard's write, store-crash-seam.ts). */
export type CrashSeam = WorkerCrashSeam | StoreCrashSeam;

export const CRASH_SEAMS: readonly CrashSeam[] = ['taken', 'checkpointed', 'suspended', 'handed-back', 'parent-due', 'ended', ...STORE_CRASH_SEAMS];

/** Tests only: called at each seam a run passes; a test's hook never returns, to be killed there. */
export type CrashSeamHook = (seam: CrashSeam, executionId: string) => Promise<void>;
