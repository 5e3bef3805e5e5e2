import { describe, expect, it } from 'vitest';
import { HASH_SLOTS, keySlot, shardPrefixes } from './shard-tags.ts';

describe('shard tags', () => {
  it('hash keys as Redis Cluster does (its documented slots)', () => {
    expect(keySlot('123456789')).toBe(0x31c3 % HASH_SLOTS);
    expect(keySlot('foo')).toBe(12182);
    expect(keySlot('{user1000}.following')).toBe(keySlot('user1000'));
    expect(keySlot('{}.x')).toBe(keySlot('{}.x'));
    expect(keySlot('{}.x')).not.toBe(keySlot('x'));
  });

  it('keep the prefix as shard 0, and put each other shard a count-th of the slots further on', () => {
    for (const count of [1, 2, 3, 5, 16]) {
      const prefixes = shardPrefixes('{ces}', count);
      expect(prefixes).toHaveLength(count);
      expect(prefixes[0]).toBe('{ces}');
      const first = keySlot('{ces}');
      prefixes.forEach((prefix, shard) => {
        expect(prefix).toMatch(/^\{ces(~[0-9a-z]+)?\}$/);
        expect(keySlot(`${prefix}:exec:x`)).toBe((first + Math.round((shard * HASH_SLOTS) / count)) % HASH_SLOTS);
      });
    }
  });

  it('land on as many primaries as shards when the primaries split the slots evenly', () => {
    for (const count of [2, 3, 4, 6]) {
      const primaries = shardPrefixes('{ces}', count).map((prefix) => Math.floor((keySlot(prefix) * count) / HASH_SLOTS));
      expect(new Set(primaries).size).toBe(count);
    }
  });

  it('refuse a prefix that is not a hash tag', () => {
    expect(() => shardPrefixes('ces', 3)).toThrow(/hash tag/);
  });
});
