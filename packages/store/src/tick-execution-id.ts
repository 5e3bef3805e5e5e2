import { derivedExecutionId } from './execution-ids.ts';
import { shardIndexFor } from './shard-layout.ts';

/**
 * The id of the run a schedule's tick starts, derived from the tick's identity (account, schedule,
 * scheduled time): a tick fired again (its firer died before moving the cursor, or stalled past its
 * lease) finds its run instead of starting a second one. 32 hex characters, like every execution
 * id; among `shards` (QUEUE_SHARDS), on the one the schedule maps to (shardIndexFor), so every
 * process finds the same one while QUEUE_SHARDS stays.
 */
export function tickExecutionId(account: string, schedule: string, scheduledTime: number, shards = 1): string {
  return derivedExecutionId(`schedule\n${account}\n${schedule}\n${scheduledTime}`, shardIndexFor(`schedule\n${account}\n${schedule}`, shards));
}
