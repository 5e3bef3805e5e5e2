import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { derivedExecutionId, executionShard, newExecutionId, placeExecutionId } from './execution-ids.ts';

describe('execution ids', () => {
  it('are 32 lowercase hex characters that name their shard', () => {
    for (const shard of [0, 1, 2, 17, 255]) {
      const id = newExecutionId(shard);
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(executionShard(id)).toBe(shard);
    }
  });

  it('name shard 0 when they were made before shards: random hex fails the check', () => {
    for (let i = 0; i < 1000; i += 1) expect(executionShard(createHash('sha256').update(String(i)).digest('hex').slice(0, 32))).toBe(0);
  });

  it('made on shard 0 are what they were before shards: a tick or a child keeps its id', () => {
    const identity = 'schedule\nacme\nnightly\n1700000000000';
    expect(derivedExecutionId(identity, 0)).toBe(createHash('sha256').update(identity).digest('hex').slice(0, 32));
  });

  it('derived from the same identity are the same on one shard, and differ between shards', () => {
    expect(derivedExecutionId('parent\n0.1', 2)).toBe(derivedExecutionId('parent\n0.1', 2));
    expect(derivedExecutionId('parent\n0.1', 2)).not.toBe(derivedExecutionId('parent\n0.1', 3));
    expect(executionShard(derivedExecutionId('parent\n0.1', 3))).toBe(3);
  });

  it('an id passing the check is made again on shard 0, so it never names another shard', () => {
    const onShard5 = placeExecutionId('0123456789abcdef0123456789abcdef', 5);
    const again = placeExecutionId(onShard5, 0);
    expect(again).not.toBe(onShard5);
    expect(executionShard(again)).toBe(0);
  });

  it('refuse a shard ids cannot name', () => {
    expect(() => newExecutionId(256)).toThrow(RangeError);
    expect(() => newExecutionId(-1)).toThrow(RangeError);
  });
});
