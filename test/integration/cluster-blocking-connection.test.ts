import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '@ces/local-runtime';
import { createRedisConnection } from '@ces/store';
import { waitFor } from '@ces/testing';
import { type Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms).unref())]);

// A BullMQ worker's blocking connection is a duplicate of the connection it is given. BullMQ
// disconnects it when a BZPOPMIN outlasts its timeout, as one does while a primary fails over, and
// awaits its connect(): that must settle even while the cluster reports itself failed, or the
// worker never takes a job again. A one-node Cluster that gives up half its slots is failed
// (cluster_state:fail) for as long as this file wants.
describe("a Cluster connection's duplicate, as BullMQ's blocking connection", () => {
  const dir = mkdtempSync(join(tmpdir(), 'ces-cluster-blocking-'));
  let port = 0;
  let server: ChildProcess;
  let admin: Redis;

  beforeAll(async () => {
    port = await findFreePort();
    const busPort = await findFreePort();
    server = spawn(
      'redis-server',
      [
        ...['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-port', String(busPort)],
        ...['--cluster-config-file', join(dir, 'nodes.conf'), '--dir', dir, '--save', '', '--appendonly', 'no'],
        // Alone, a node knows no address of its own to give in CLUSTER SLOTS.
        ...['--cluster-announce-ip', '127.0.0.1'],
      ],
      { stdio: 'ignore' },
    );
    admin = new Redis(port, '127.0.0.1', { retryStrategy: (attempt) => Math.min(attempt * 50, 500) });
    admin.on('error', () => {});
    await waitFor(async () => (await admin.ping()) === 'PONG', { timeoutMs: 10_000, what: 'the node' });
  });

  afterAll(async () => {
    admin?.disconnect();
    if (server && server.exitCode === null) {
      server.kill('SIGKILL');
      await once(server, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects again while the cluster is failed, and serves BZPOPMIN once it is whole', { timeout: 30_000 }, async () => {
    const connection = createRedisConnection({ clusterNodes: [{ host: '127.0.0.1', port }] }, 'durable', 'worker');
    connection.on('error', () => {});
    // As BullMQ makes it (create-backend.js, ioredis-client.js).
    const blocking = (connection as unknown as Cluster).duplicate(undefined, { redisOptions: { connectionName: 'worker-blocking' } });
    blocking.on('error', () => {});
    const stateIs = (state: string) => async () => new RegExp(`cluster_state:${state}`).test((await admin.call('CLUSTER', 'INFO')) as string);
    try {
      await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
      await waitFor(stateIs('ok'), { timeoutMs: 10_000, what: 'the cluster whole' });
      await waitFor(async () => blocking.status === 'ready', { timeoutMs: 10_000, what: 'the duplicate to be ready' });

      await admin.call('CLUSTER', 'DELSLOTSRANGE', '8192', '16383');
      await waitFor(stateIs('fail'), { timeoutMs: 10_000, what: 'the cluster failed' });
      blocking.disconnect();
      await once(blocking, 'end');
      await within(blocking.connect(), 5_000, "the duplicate's connect()");
      expect(blocking.status).toBe('ready');

      await admin.call('CLUSTER', 'ADDSLOTSRANGE', '8192', '16383');
      await waitFor(stateIs('ok'), { timeoutMs: 10_000, what: 'the cluster whole again' });
      await admin.zadd('{blocking}:marker', 0, '0');
      expect(await within(blocking.bzpopmin('{blocking}:marker', 1), 5_000, 'BZPOPMIN')).toEqual(['{blocking}:marker', '0', '0']);
    } finally {
      blocking.disconnect();
      connection.disconnect();
    }
  });
});
