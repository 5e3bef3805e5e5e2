import type { Redis } from 'ioredis';
import { executionShard, MAX_SHARDS } from './execution-ids.ts';
import { createKeySpace, type KeySpace } from './keys.ts';
import { shardPrefixes } from './shard-tags.ts';

/** One shard: its own hash tag, under which its runs' keys and its queue live. */
export interface Shard {
  readonly index: number;
  readonly keys: KeySpace;
}

/**
 * Where runs live. What belongs to accounts rather than runs (accounts, credentials, presets,
 * tokens, own Choreos, schedules, webhooks, the per-account limits) lives in one slot, `control`,
 * which is shard 0's: with one shard, the layout of a deployment without shards.
 */
export interface ShardLayout {
  readonly control: KeySpace;
  /** Every shard runs were ever put on (a deployment that had more keeps them), by index. */
  readonly shards: readonly Shard[];
  /** How many of them new runs go to (QUEUE_SHARDS). */
  readonly active: number;
  /** The shard an execution id names; shard 0 for an id naming none there is. */
  shardOf(executionId: string): Shard;
  /** A shard for a new run: one of the active ones, at random, so that one account's runs use them all. */
  pick(): Shard;
  /** The active shard `text` (an Idempotency-Key's, a tick's identity) always maps to while QUEUE_SHARDS stays. */
  pickFor(text: string): Shard;
}

/** The layout of a deployment without shards, or of tests that need no Redis to know it. */
export function singleShardLayout(keys: KeySpace): ShardLayout {
  return layoutOf(keys, [keys.prefix], 1);
}

function layoutOf(control: KeySpace, prefixes: readonly string[], active: number): ShardLayout {
  const shards = prefixes.map((prefix, index) => ({ index, keys: index === 0 ? control : createKeySpace(prefix) }));
  const first = shards[0] as Shard;
  return {
    control,
    shards,
    active,
    shardOf: (executionId) => shards[executionShard(executionId)] ?? first,
    pick: () => (active === 1 ? first : (shards[Math.floor(Math.random() * active)] as Shard)),
    pickFor: (text) => (active === 1 ? first : (shards[stringHash(text) % active] as Shard)),
  };
}

function stringHash(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
  return hash;
}

/**
 * The layout of a deployment with `active` shards (QUEUE_SHARDS), registered in the control slot
 * (keys.ts, `shards`) so that every process agrees on each shard's tag whatever count it was
 * started with: a shard's tag is chosen by the first process that names it and kept for ever, so
 * growing QUEUE_SHARDS adds shards and moves no run. Workers take the runs of every shard there
 * is, active or not.
 */
export async function openShardLayout(redis: Redis, control: KeySpace, active: number): Promise<ShardLayout> {
  if (!Number.isInteger(active) || active < 1 || active > MAX_SHARDS) throw new RangeError(`QUEUE_SHARDS must be 1 to ${MAX_SHARDS}, not ${active}`);
  const registry = control.shards();
  const wanted = active === 1 ? [control.prefix] : shardPrefixes(control.prefix, active);
  const known = await redis.hgetall(registry);
  if (Object.keys(known).length < active) {
    const pipeline = redis.pipeline();
    for (let index = 1; index < active; index += 1) pipeline.hsetnx(registry, String(index), wanted[index] as string);
    pipeline.hgetall(registry);
    const replies = (await pipeline.exec()) ?? [];
    const [error, all] = replies.at(-1) ?? [new Error('no reply')];
    if (error) throw error;
    Object.assign(known, all as Record<string, string>);
  }
  const prefixes = [control.prefix];
  for (let index = 1; known[String(index)] !== undefined; index += 1) prefixes.push(known[String(index)] as string);
  return layoutOf(control, prefixes, active);
}
