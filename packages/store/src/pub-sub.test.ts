import { Cluster, Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { publishCommand, shardedPubSub } from './pub-sub.ts';

// Clients that are never connected: which commands the pub/sub would use on each, and what it refuses.
describe('pub/sub of run events and ends', () => {
  it('is plain on one Redis and sharded on a Cluster', () => {
    const single = new Redis({ lazyConnect: true });
    const cluster = new Cluster([{ host: '127.0.0.1', port: 1 }], { lazyConnect: true }) as unknown as Redis;
    try {
      expect(publishCommand(single)).toBe('PUBLISH');
      expect(publishCommand(cluster)).toBe('SPUBLISH');
    } finally {
      single.disconnect();
      cluster.disconnect();
    }
  });

  it('refuses to subscribe sharded through a Cluster client made without sharded subscribers', async () => {
    const plain = new Cluster([{ host: '127.0.0.1', port: 1 }], { lazyConnect: true }) as unknown as Redis;
    try {
      await expect(shardedPubSub(plain).subscribe(plain, '{ces}:events:execution-ended')).rejects.toThrow(/shardedSubscribers/);
    } finally {
      plain.disconnect();
    }
  });
});
