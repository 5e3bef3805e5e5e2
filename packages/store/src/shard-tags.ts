/** How many hash slots a Redis Cluster has. */
export const HASH_SLOTS = 16384;

/** CRC16-CCITT (XMODEM), the checksum Redis Cluster hashes keys with. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

const encoder = new TextEncoder();

/** The slot of a key, by its hash tag when it has a non-empty one, as Redis Cluster computes it. */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  if (open >= 0) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) return crc16(encoder.encode(key.slice(open + 1, close))) % HASH_SLOTS;
  }
  return crc16(encoder.encode(key)) % HASH_SLOTS;
}

/**
 * The key prefixes (hash tags) of `count` shards: shard 0 is `prefix` itself, so that one shard is
 * the layout of a deployment without shards; shard i's slot lies i/count of the slot range past
 * shard 0's. On a Cluster whose primaries hold equal ranges of slots, `count` slots a count-th of
 * the range apart fall in `count` different ranges: up to as many primaries as there are, each
 * shard has its own. The tag is the first of `<prefix's tag>~0`, `~1`, … (base 36) with that slot.
 */
export function shardPrefixes(prefix: string, count: number): string[] {
  const inner = /^\{([^{}]+)\}$/.exec(prefix)?.[1];
  if (inner === undefined) throw new Error(`a key prefix with shards must be a hash tag such as {ces}, not ${prefix}`);
  const first = keySlot(prefix);
  const prefixes = [prefix];
  for (let shard = 1; shard < count; shard += 1) prefixes.push(`{${taggedAt(inner, (first + Math.round((shard * HASH_SLOTS) / count)) % HASH_SLOTS)}}`);
  return prefixes;
}

function taggedAt(inner: string, slot: number): string {
  // About HASH_SLOTS tries on average: a few milliseconds, once per shard at start.
  for (let n = 0; ; n += 1) {
    const tag = `${inner}~${n.toString(36)}`;
    if (crc16(encoder.encode(tag)) % HASH_SLOTS === slot) return tag;
  }
}
