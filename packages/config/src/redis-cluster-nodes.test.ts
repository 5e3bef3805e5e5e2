import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { redisClusterNodes, redisReplicaAcks } from './fields.ts';
import { parseEnv } from './parse-env.ts';

const schema = z.object({ REDIS_CLUSTER_NODES: redisClusterNodes, REDIS_REPLICA_ACKS: redisReplicaAcks });

describe('REDIS_CLUSTER_NODES', () => {
  it('reads host:port pairs separated by commas, IPv6 in brackets included', () => {
    expect(parseEnv(schema, { REDIS_CLUSTER_NODES: 'redis-1:7000, 10.0.0.2:7001,[::1]:7002' }).REDIS_CLUSTER_NODES).toEqual([
      { host: 'redis-1', port: 7000 },
      { host: '10.0.0.2', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
  });

  it('is absent when unset or empty', () => {
    expect(parseEnv(schema, {}).REDIS_CLUSTER_NODES).toBeUndefined();
    expect(parseEnv(schema, { REDIS_CLUSTER_NODES: ' ' }).REDIS_CLUSTER_NODES).toBeUndefined();
  });

  it.each(['redis-1', 'redis-1:', 'redis-1:0', 'redis-1:70000', 'redis://redis-1:6379', 'a:1,,b'])('refuses %j', (value) => {
    expect(() => parseEnv(schema, { REDIS_CLUSTER_NODES: value })).toThrow(/REDIS_CLUSTER_NODES: expected host:port/);
  });
});

describe('REDIS_REPLICA_ACKS', () => {
  it('is 0 by default and refuses a negative count', () => {
    expect(parseEnv(schema, {}).REDIS_REPLICA_ACKS).toBe(0);
    expect(parseEnv(schema, { REDIS_REPLICA_ACKS: '2' }).REDIS_REPLICA_ACKS).toBe(2);
    expect(() => parseEnv(schema, { REDIS_REPLICA_ACKS: '-1' })).toThrow(/REDIS_REPLICA_ACKS/);
  });
});
