import type { Socket } from 'node:net';
import { createRedisConnection, waitUntilReady, type ConnectionRole } from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, waitFor } from '@ces/testing';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';

// The service's connections send the commands issued in one turn of the event loop as one write
// (one system call), against a real Redis: the replies, their order and reconnection unchanged.
describe('coalesced writes on Redis connections', () => {
  const prefix = isolatedPrefix('coalesce');
  const opened: Redis[] = [];

  afterEach(async () => {
    for (const connection of opened.splice(0)) connection.disconnect();
  });

  afterAll(async () => {
    const cleaner = createRedisConnection(inject('redisUrl'), 'durable');
    await deleteKeysWithPrefix(cleaner, prefix);
    cleaner.disconnect();
  });

  async function connect(role: ConnectionRole): Promise<Redis> {
    const connection = createRedisConnection(inject('redisUrl'), role, `coalesce-${role}`);
    opened.push(connection);
    await waitUntilReady(connection);
    return connection;
  }

  /** Counts the writes that reach the connection's current socket (each one a system call). */
  function countWrites(connection: Redis): { count: () => number } {
    const socket = (connection as unknown as { stream: Socket & { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void } }).stream;
    let writes = 0;
    const write = socket._write;
    const writev = socket._writev;
    socket._write = function (this: Socket, ...args: unknown[]) {
      writes += 1;
      return write.apply(this, args);
    };
    socket._writev = function (this: Socket, ...args: unknown[]) {
      writes += 1;
      return writev.apply(this, args);
    };
    return { count: () => writes };
  }

  it.each(['request', 'queue', 'durable'] as const)('a %s connection sends one turn of commands in one write', async (role) => {
    const connection = await connect(role);
    const writes = countWrites(connection);
    const key = `${prefix}:${role}:counter`;
    const replies = await Promise.all(Array.from({ length: 20 }, () => connection.incr(key)));
    expect(replies).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(writes.count()).toBe(1);
  });

  it('sends each turn when it ends: commands awaited one by one go out one write each', async () => {
    const connection = await connect('request');
    const writes = countWrites(connection);
    const key = `${prefix}:sequential`;
    await connection.set(key, 'a');
    await connection.append(key, 'b');
    expect(await connection.get(key)).toBe('ab');
    expect(writes.count()).toBe(3);
  });

  it('keeps coalescing after a reconnection', async () => {
    const connection = await connect('durable');
    const before = (connection as unknown as { stream: Socket }).stream;
    connection.disconnect(true);
    await waitFor(() => connection.status === 'ready' && (connection as unknown as { stream: Socket }).stream !== before, { timeoutMs: 10_000 });
    const writes = countWrites(connection);
    const key = `${prefix}:after-reconnect`;
    const replies = await Promise.all(Array.from({ length: 5 }, () => connection.incr(key)));
    expect(replies).toEqual([1, 2, 3, 4, 5]);
    expect(writes.count()).toBe(1);
  });

  it('leaves a subscriber connection as it is', async () => {
    const connection = await connect('subscriber');
    const writes = countWrites(connection);
    await Promise.all([connection.ping(), connection.ping()]);
    expect(writes.count()).toBe(2);
  });
});
