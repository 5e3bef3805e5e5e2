import type { Redis } from 'ioredis';
import { redisInfo } from './redis-info.ts';

/** Redis's own counters: every command run (scripts' inner calls included), reads and writes, bytes in and out. */
export interface RedisWorkSnapshot {
  commands: Record<string, number>;
  reads: number;
  writes: number;
  inputBytes: number;
  outputBytes: number;
}

export async function redisWorkSnapshot(redis: Redis): Promise<RedisWorkSnapshot> {
  const [commandStats, stats] = await Promise.all([redisInfo(redis, 'commandstats'), redisInfo(redis, 'stats')]);
  const commands: Record<string, number> = {};
  for (const [name, value] of commandStats) {
    const calls = /calls=(\d+)/.exec(value);
    if (name.startsWith('cmdstat_') && calls) commands[name.slice('cmdstat_'.length)] = Number(calls[1]);
  }
  return {
    commands,
    reads: Number(stats.get('total_reads_processed') ?? 0),
    writes: Number(stats.get('total_writes_processed') ?? 0),
    inputBytes: Number(stats.get('total_net_input_bytes') ?? 0),
    outputBytes: Number(stats.get('total_net_output_bytes') ?? 0),
  };
}

/** Nothing done yet: the start from which phases' work is added up. */
export const NO_REDIS_WORK: RedisWorkSnapshot = { commands: {}, reads: 0, writes: 0, inputBytes: 0, outputBytes: 0 };

/**
 * `total` plus what Redis did between `before` and `after`: the work of phases measured apart (with
 * other work between them) added up, to be shared with redisWorkPerOperation(NO_REDIS_WORK, total, …).
 */
export function addRedisWork(total: RedisWorkSnapshot, before: RedisWorkSnapshot, after: RedisWorkSnapshot): RedisWorkSnapshot {
  const commands = { ...total.commands };
  for (const [name, calls] of Object.entries(after.commands)) commands[name] = (commands[name] ?? 0) + calls - (before.commands[name] ?? 0);
  return {
    commands,
    reads: total.reads + after.reads - before.reads,
    writes: total.writes + after.writes - before.writes,
    inputBytes: total.inputBytes + after.inputBytes - before.inputBytes,
    outputBytes: total.outputBytes + after.outputBytes - before.outputBytes,
  };
}

export interface RedisWorkPerOperation {
  /** Commands Redis ran per operation, those inside scripts included. */
  commands: number;
  /** Script calls (EVALSHA, EVAL) per operation. */
  scripts: number;
  /** Reads from and writes to client sockets per operation: Redis's system calls. */
  reads: number;
  writes: number;
  /** Bytes Redis received from and sent to its clients per operation: what a shard's network carries. */
  inputBytes: number;
  outputBytes: number;
  /** Commands per operation by name, the most frequent first (those under 0.05 left out). */
  byCommand: Record<string, number>;
}

const perOperation = (count: number, operations: number) => Math.round((count / Math.max(1, operations)) * 100) / 100;

/**
 * What Redis did per operation between two snapshots: why one run costs Redis more than one raw
 * BullMQ job, in commands rather than guesses. The snapshot's own INFO calls are counted too, a
 * handful against the thousands of operations of a phase.
 */
export function redisWorkPerOperation(before: RedisWorkSnapshot, after: RedisWorkSnapshot, operations: number): RedisWorkPerOperation {
  const byCommand: [string, number][] = [];
  let commands = 0;
  for (const [name, calls] of Object.entries(after.commands)) {
    const delta = calls - (before.commands[name] ?? 0);
    commands += delta;
    const each = perOperation(delta, operations);
    if (each >= 0.05) byCommand.push([name, each]);
  }
  byCommand.sort((a, b) => b[1] - a[1]);
  return {
    commands: perOperation(commands, operations),
    scripts: perOperation(
      ['evalsha', 'eval'].reduce((sum, name) => sum + (after.commands[name] ?? 0) - (before.commands[name] ?? 0), 0),
      operations,
    ),
    reads: perOperation(after.reads - before.reads, operations),
    writes: perOperation(after.writes - before.writes, operations),
    inputBytes: Math.round((after.inputBytes - before.inputBytes) / Math.max(1, operations)),
    outputBytes: Math.round((after.outputBytes - before.outputBytes) / Math.max(1, operations)),
    byCommand: Object.fromEntries(byCommand),
  };
}
