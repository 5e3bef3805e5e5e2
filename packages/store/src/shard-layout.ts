import type { Redis } from 'ioredis';
import { executionShard, MAX_SHARDS } from './execution-ids.ts';
import { createKeySpace, type KeySpace } from './keys.ts';
import { shardPrefixes } from './shard-tags.ts';

/** How often a process reads the registry of shards again, to learn of those a deployment added. */
export const SHARD_REFRESH_MS = 10_000;

/** How long after a shard is registered every process knows of it: twice the refresh, for clocks a little apart. */
export const SHARD_SETTLE_MS = 2 * SHARD_REFRESH_MS;

/** One shard: its own hash tag, under which its runs' keys and its queue live. */
export interface Shard {
  readonly index: number;
  readonly keys: KeySpace;
}

/**
 * Where runs live. What belongs to accounts rather than runs (accounts, credentials, presets,
 * tokens, own Choreos, schedules, webhooks, the per-account limits) lives in one slot, `control`,
 * which is shard 0's: with one shard, the layout of a deployment without shards.
 *
 * The shards are those registered in the control slot (keys.ts, `shards`) when the layout was
 * opened or last refreshed: a deployment that grows QUEUE_SHARDS registers more, and a process
 * started before learns of them when it refreshes (an id naming a shard it does not know yet,
 * or its periodic look).
 */
export interface ShardLayout {
  readonly control: KeySpace;
  /** Every shard runs were ever put on, by index, as last read. */
  readonly shards: readonly Shard[];
  /** How many of them new runs go to (this process's QUEUE_SHARDS). */
  readonly active: number;
  /** False for a layout of one shard fixed for good (singleShardLayout): nothing need ever look for more. */
  readonly grows: boolean;
  /** The shard an execution id names, among those known now; shard 0 for an id naming none. */
  shardOf(executionId: string): Shard;
  /** The shard an execution id names, the registry read again first when it names one not known yet. */
  locate(executionId: string): Promise<Shard>;
  /** A shard for a new run: one of the active ones, at random, so that one account's runs use them all. */
  pick(): Shard;
  /** The active shard `text` (an Idempotency-Key's) always maps to while QUEUE_SHARDS stays. */
  pickFor(text: string): Shard;
  /**
   * How many shards a schedule's tick at `time` maps among (tickExecutionId): those registered
   * SHARD_SETTLE_MS or more before it, which every process knows of by the time it fires the tick,
   * whatever its QUEUE_SHARDS. So every process derives the same run for a tick, before and after
   * the deployment grows.
   */
  shardsAt(time: number): number;
  /** Reads the registry again; resolves with the shards it added. */
  refresh(): Promise<readonly Shard[]>;
  /** Calls `listener` with the shards each refresh adds. */
  onAdded(listener: (added: readonly Shard[]) => void): () => void;
  /**
   * When the deployment first had a second shard (epoch ms), as last read; undefined while it has
   * one. Runs started before it (and a little after, by processes yet to learn of it) were
   * accepted without the control slot's reservation (account-reservations.ts).
   */
  readonly shardedSince: number | undefined;
}

/** The layout of a deployment without shards, or of tests that need no Redis to know it. */
export function singleShardLayout(keys: KeySpace): ShardLayout {
  return layoutOf(keys, 1, undefined);
}

/** A layout as given, or a key space as the layout of its one shard: for what serves either. */
export function asShardLayout(keys: KeySpace | ShardLayout): ShardLayout {
  return 'onAdded' in keys ? keys : singleShardLayout(keys);
}

interface Registered {
  prefixes: readonly string[];
  /** When each was registered (epoch ms; 0 for shard 0, and for shards registered before this was kept). */
  added?: readonly number[];
  since?: number;
}

function layoutOf(
  control: KeySpace,
  active: number,
  read: (() => Promise<Registered>) | undefined,
  known: Registered = { prefixes: [control.prefix] },
): ShardLayout {
  let shards: Shard[] = [];
  let since = known.since;
  let registeredAt: readonly number[] = [];
  const listeners = new Set<(added: readonly Shard[]) => void>();
  const grow = ({ prefixes, since: registeredSince, added: registeredTimes = [] }: Registered) => {
    since = registeredSince;
    registeredAt = registeredTimes;
    const added = prefixes.slice(shards.length).map((prefix, i) => {
      const index = shards.length + i;
      return { index, keys: index === 0 ? control : createKeySpace(prefix) };
    });
    if (added.length === 0) return added;
    shards = [...shards, ...added];
    for (const listener of listeners) listener(added);
    return added;
  };
  grow(known);
  let refreshing: Promise<readonly Shard[]> | undefined;
  const refresh = () => {
    refreshing ??= (read ? read() : Promise.resolve(known)).then(grow).finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };
  const first = () => shards[0] as Shard;
  return {
    control,
    get shards() {
      return shards;
    },
    get shardedSince() {
      return since;
    },
    active,
    grows: read !== undefined,
    shardOf: (executionId) => shards[executionShard(executionId)] ?? first(),
    async locate(executionId) {
      const index = executionShard(executionId);
      if (index >= shards.length) await refresh();
      return shards[index] ?? first();
    },
    pick: () => shards[Math.floor(Math.random() * Math.min(active, shards.length))] ?? first(),
    pickFor: (text) => shards[shardIndexFor(text, Math.min(active, shards.length))] ?? first(),
    shardsAt(time) {
      let count = 1;
      while (count < shards.length && (registeredAt[count] ?? 0) <= time - SHARD_SETTLE_MS) count += 1;
      return count;
    },
    refresh,
    onAdded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** What an account's Idempotency-Key maps to a shard by (ShardLayout.pickFor). */
export function idempotencyShardText(account: string, key: string): string {
  return `${account}\n${key}`;
}

/**
 * The shard of `count` that `text` (an Idempotency-Key's account and key, a schedule's account and
 * name) maps to, the same in every process while the count stays: FNV-1a, modulo the count.
 */
export function shardIndexFor(text: string, count: number): number {
  if (count <= 1) return 0;
  let hash = 2166136261;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
  return hash % count;
}

/** The registered prefixes, by index (shard 0's is the control slot's own), and when there were first two. */
async function registered(redis: Redis, control: KeySpace): Promise<Registered> {
  const known = await redis.hgetall(control.shards());
  const prefixes = [control.prefix];
  const added = [0];
  for (let index = 1; known[String(index)] !== undefined; index += 1) {
    prefixes.push(known[String(index)] as string);
    added.push(Number(known[`added:${index}`] ?? 0));
  }
  return { prefixes, added, ...(known.since !== undefined ? { since: Number(known.since) } : {}) };
}

/**
 * The layout of a deployment with `active` shards (QUEUE_SHARDS), registered in the control slot
 * so that every process agrees on each shard's tag whatever count it was started with: a shard's
 * tag is chosen by the first process that names it and kept for ever, so growing QUEUE_SHARDS
 * adds shards and moves no run. Workers take the runs of every shard there is, active or not.
 */
export async function openShardLayout(redis: Redis, control: KeySpace, active: number): Promise<ShardLayout> {
  if (!Number.isInteger(active) || active < 1 || active > MAX_SHARDS) throw new RangeError(`QUEUE_SHARDS must be 1 to ${MAX_SHARDS}, not ${active}`);
  let known = await registered(redis, control);
  if (known.prefixes.length < active) {
    const wanted = shardPrefixes(control.prefix, active);
    const pipeline = redis.pipeline();
    const now = String(Date.now());
    for (let index = 1; index < active; index += 1) {
      pipeline.hsetnx(control.shards(), String(index), wanted[index] as string);
      pipeline.hsetnx(control.shards(), `added:${index}`, now);
    }
    pipeline.hsetnx(control.shards(), 'since', now);
    for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
    known = await registered(redis, control);
  }
  return layoutOf(control, active, () => registered(redis, control), known);
}

/** Refreshes `layout` every `intervalMs` (a failed read is tried at the next); returns the stop. */
export function followShardRegistry(layout: ShardLayout, intervalMs = SHARD_REFRESH_MS, onError?: (error: unknown) => void): () => void {
  if (!layout.grows) return () => {};
  const timer = setInterval(() => {
    layout.refresh().catch((error: unknown) => onError?.(error));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
