/**
 * The points inside the store where a process that dies leaves the control slot and a shard apart
 * (with more than one shard: account-reservations.ts):
 * - `reserved`: a run is reserved in the control slot, its shard has not accepted it;
 * - `ended-unreleased`: a run has ended on its shard, its reservation is not let go;
 * - `executing-reserved`: a place among the account's executing runs is reserved, the take not made;
 * - `subscription-written`: a webhook subscription is written, its event counts not copied to every shard.
 * docs/architecture.md ("Crash seams") says what repairs each; tests hold a process at one
 * (WORKER_TEST_HOLD_AT, API_TEST_HOLD_AT) and kill it there.
 */
export type StoreCrashSeam = 'reserved' | 'ended-unreleased' | 'executing-reserved' | 'subscription-written';

export const STORE_CRASH_SEAMS: readonly StoreCrashSeam[] = ['reserved', 'ended-unreleased', 'executing-reserved', 'subscription-written'];

/** Tests only: called at each seam a run passes; a test's hook never returns, to be killed there. */
export type StoreCrashSeamHook = (seam: StoreCrashSeam, id: string) => Promise<void>;

/**
 * Tests only: a seam hook that stops its process for good at `seam` (the one a test names through
 * the environment), once `onHeld` has said so, so that the test can kill it exactly there.
 */
export function holdAtSeam<Seam extends string>(seam: Seam, onHeld: (id: string) => void): (at: Seam, id: string) => Promise<void> {
  return async (at, id) => {
    if (at !== seam) return;
    onHeld(id);
    await new Promise<void>(() => {});
  };
}
