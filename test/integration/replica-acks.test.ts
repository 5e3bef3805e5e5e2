import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '@ces/local-runtime';
import { createExecutionStore, createKeySpace, ReplicationShortError, type ReplicationShortError as Shortfall } from '@ces/store';
import { isolatedPrefix, newExecutionFixture, waitFor } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// REDIS_REPLICA_ACKS on a primary with one replica (two redis-server processes of this file's own):
// an accepted run counts once the replica holds it. Without the replica, the API's accept fails
// (it answers 503) while a worker's write waits until a replica is back.
describe('writes acknowledged by replicas', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ces-replica-acks-'));
  let primaryPort = 0;
  let replicaPort = 0;
  let primary: ChildProcess;
  let replica: ChildProcess | undefined;
  let redis: Redis;
  const keys = createKeySpace(isolatedPrefix('acks'));

  const startReplica = async () => {
    replica = spawn(
      'redis-server',
      [
        ...['--port', String(replicaPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
        ...['--replicaof', '127.0.0.1', String(primaryPort), '--enable-debug-command', 'local'],
      ],
      { stdio: 'ignore' },
    );
    await waitFor(async () => /connected_slaves:1/.test(await redis.info('replication')) && /state=online/.test(await redis.info('replication')), {
      timeoutMs: 20_000,
      intervalMs: 50,
      what: 'the replica in sync',
    });
  };
  const stopReplica = async () => {
    if (!replica) return;
    replica.kill('SIGKILL');
    await once(replica, 'exit');
    replica = undefined;
    await waitFor(async () => /connected_slaves:0/.test(await redis.info('replication')), {
      timeoutMs: 20_000,
      intervalMs: 50,
      what: 'the primary to see its replica gone',
    });
  };

  beforeAll(async () => {
    primaryPort = await findFreePort();
    replicaPort = await findFreePort();
    primary = spawn('redis-server', ['--port', String(primaryPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: 'ignore',
    });
    redis = new Redis(primaryPort, '127.0.0.1', { retryStrategy: (attempt) => Math.min(attempt * 50, 500) });
    redis.on('error', () => {});
    await waitFor(async () => (await redis.ping()) === 'PONG', { timeoutMs: 10_000, what: 'the primary' });
    await startReplica();
  });

  afterAll(async () => {
    redis?.disconnect();
    for (const server of [replica, primary]) {
      if (server && server.exitCode === null) {
        server.kill('SIGKILL');
        await once(server, 'exit');
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('acknowledges an accept once the replica holds the record', async () => {
    const store = createExecutionStore({ redis, keys, retentionSeconds: 300, replicaAcks: { replicas: 1, timeoutMs: 2_000 } });
    const run = newExecutionFixture();
    expect(await store.accept(run, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    const onReplica = new Redis(replicaPort, '127.0.0.1');
    try {
      // WAIT returned: the replica has it already, not eventually.
      expect(await onReplica.hget(keys.execution(run.id), 'status')).toBe('RUNNING');
    } finally {
      onReplica.disconnect();
    }
  });

  it('confirms an end written by another connection only once the replica holds it', { timeout: 30_000 }, async () => {
    const worker = createExecutionStore({ redis, keys, retentionSeconds: 300 });
    const run = newExecutionFixture();
    expect(await worker.accept(run, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    const onReplica = new Redis(replicaPort, '127.0.0.1');
    const probe = new Redis(replicaPort, '127.0.0.1', { commandTimeout: 50, maxRetriesPerRequest: 0 });
    probe.on('error', () => {});
    // A fresh connection of the API's, which has written nothing: a WAIT alone would count none of the end.
    const api = new Redis(primaryPort, '127.0.0.1');
    try {
      const asleep = onReplica.call('DEBUG', 'SLEEP', '1.5');
      await waitFor(async () => (await probe.ping().catch(() => 'busy')) === 'busy', {
        timeoutMs: 5_000,
        intervalMs: 10,
        what: 'the replica to stop following',
      });
      expect(await worker.end(run.id, { status: 'SUCCESS' })).toEqual({ outcome: 'ended', status: 'SUCCESS' });
      const confirming = createExecutionStore({ redis: api, keys, retentionSeconds: 300, replicaAcks: { replicas: 1, timeoutMs: 200 } });
      await expect(confirming.confirmReplicated(run.id)).rejects.toBeInstanceOf(ReplicationShortError);
      await asleep;
      await confirming.confirmReplicated(run.id);
      expect(await onReplica.hget(keys.execution(run.id), 'status')).toBe('SUCCESS');
    } finally {
      for (const connection of [onReplica, probe, api]) connection.disconnect();
    }
  });

  it('accepts a run its caller confirms later without waiting for the replica, and confirms it once the replica holds it', { timeout: 60_000 }, async () => {
    await stopReplica();
    const store = createExecutionStore({ redis, keys, retentionSeconds: 300, replicaAcks: { replicas: 1, timeoutMs: 100 } });
    const run = newExecutionFixture();
    expect(await store.accept(run, { maxRunningPerAccount: 0, acknowledgeLater: true })).toEqual({ outcome: 'accepted' });
    await expect(store.confirmReplicated(run.id)).rejects.toBeInstanceOf(ReplicationShortError);
    await startReplica();
    await store.confirmReplicated(run.id);
  });

  it('fails an accept no replica acknowledges in time, and makes a worker wait until one does', { timeout: 60_000 }, async () => {
    await stopReplica();
    const apiStore = createExecutionStore({ redis, keys, retentionSeconds: 300, replicaAcks: { replicas: 1, timeoutMs: 100 } });
    const refused = newExecutionFixture();
    await expect(apiStore.accept(refused, { maxRunningPerAccount: 0 })).rejects.toBeInstanceOf(ReplicationShortError);

    const shortfalls: Shortfall[] = [];
    const workerStore = createExecutionStore({
      redis,
      keys,
      retentionSeconds: 300,
      replicaAcks: { replicas: 1, timeoutMs: 100, untilAcknowledged: (shortfall) => shortfalls.push(shortfall) },
    });
    const waiting = newExecutionFixture();
    let settled = false;
    const accepted = workerStore.accept(waiting, { maxRunningPerAccount: 0 }).finally(() => {
      settled = true;
    });
    await waitFor(() => shortfalls.length >= 2, { timeoutMs: 10_000, what: 'the write to wait past two timeouts' });
    expect(settled).toBe(false);
    expect(shortfalls[0]?.script).toBe('acceptExecution');
    await startReplica();
    expect(await accepted).toEqual({ outcome: 'accepted' });
  });
});
