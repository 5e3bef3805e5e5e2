import { createHash, randomUUID } from 'node:crypto';

/**
 * Execution ids: 32 lowercase hex characters, which also say the run's shard.
 *
 * An id on shard 0 is random (or derived) hex, as every id was before shards: runs recorded then
 * are on shard 0 and keep their ids. An id on another shard is 22 hex characters of its own, 8 of
 * a check over them and the shard, and the shard's number in 2 (`<own><check><shard>`): the check
 * sets them apart from the ids of shard 0, which pass it once in 2^32 (an id made for shard 0 that
 * passes it is made again, so none made now does).
 */
const OWN = 22;
const CHECK = 8;

/** The most shards ids can name. */
export const MAX_SHARDS = 256;

function check(own: string, shard: string): string {
  return createHash('sha256').update(`shard\n${own}\n${shard}`).digest('hex').slice(0, CHECK);
}

/** The shard an execution id names: 0 for every id without the check (all ids made before shards). */
export function executionShard(id: string): number {
  if (id.length !== OWN + CHECK + 2) return 0;
  const own = id.slice(0, OWN);
  const shard = id.slice(OWN + CHECK);
  return check(own, shard) === id.slice(OWN, OWN + CHECK) ? Number.parseInt(shard, 16) : 0;
}

/** `hex` (32 hex characters) made an id on `shard`, keeping its first 22 characters on another. */
export function placeExecutionId(hex: string, shard: number): string {
  if (shard === 0) return executionShard(hex) === 0 ? hex : placeExecutionId(createHash('sha256').update(hex).digest('hex').slice(0, 32), 0);
  if (!Number.isInteger(shard) || shard < 0 || shard >= MAX_SHARDS) throw new RangeError(`no shard ${shard}`);
  const own = hex.slice(0, OWN);
  const tail = shard.toString(16).padStart(2, '0');
  return `${own}${check(own, tail)}${tail}`;
}

/**
 * A new random id on `shard`. randomUUID draws from a pool it refills in batches, where randomBytes
 * would make a system call for every run; on shard 0 it is a version 4 UUID without its dashes.
 */
export function newExecutionId(shard = 0): string {
  return placeExecutionId(randomUUID().replaceAll('-', ''), shard);
}

/**
 * The id derived from `identity` (a schedule's tick, a parent's child step) on `shard`: the same
 * identity gives the same id, so a start made again finds the run it made.
 */
export function derivedExecutionId(identity: string, shard: number): string {
  return placeExecutionId(createHash('sha256').update(identity).digest('hex').slice(0, 32), shard);
}
