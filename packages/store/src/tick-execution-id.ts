import { createHash } from 'node:crypto';

/**
 * The id of the run a schedule's tick starts, derived from the tick's identity (account, schedule,
 * scheduled time): a tick fired again (its firer died before moving the cursor, or stalled past its
 * lease) finds its run instead of starting a second one. 32 hex characters, like every execution id.
 */
export function tickExecutionId(account: string, schedule: string, scheduledTime: number): string {
  return createHash('sha256').update(`schedule\n${account}\n${schedule}\n${scheduledTime}`).digest('hex').slice(0, 32);
}
