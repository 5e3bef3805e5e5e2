import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort, type LocalRedisCluster } from '@ces/local-runtime';
import { waitFor } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream } from '../support/event-stream-client.ts';
import { admin, killTree, startService } from '../support/npm-start.ts';
import { type Stack, startStackOnCluster } from '../support/stack.ts';
import { writeWorkerTestCatalogue } from '../support/worker-test-catalogue.ts';

// The service on a real Redis Cluster (three primaries, three replicas, from redis-server
// processes): the API and workers connect by REDIS_CLUSTER_NODES, every key in the prefix's slot.
// With REDIS_REPLICA_ACKS=1 an accepted run and a checkpoint are acknowledged once a replica holds
// them, so the primary's death right after loses neither.
describe('on a Redis Cluster', () => {
  const catalogue = writeWorkerTestCatalogue();
  let cluster: LocalRedisCluster;
  let stack: Stack;

  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ cluster, stack, stop } = await startStackOnCluster({
      workers: 2,
      choreosDir: catalogue.dir,
      env: { REDIS_REPLICA_ACKS: '1' },
      // Waits in the worker: the failover below meets runs mid-step rather than suspended.
      workerEnv: { DURABLE_WAIT_THRESHOLD_MS: '86400000' },
    }));
  }, 120_000);

  afterAll(async () => {
    await stop?.();
    catalogue.remove();
  });

  it('runs Choreos synchronously and asynchronously, and lists them', async () => {
    const alice = stack.credentials.alice;
    const sync = await stack.call('POST', '/choreos/Test/Quick', alice, { body: '{"inputs": []}' });
    expect(sync.status, sync.text).toBe(200);
    expect(sync.json().execution.status).toBe('SUCCESS');
    const id = await stack.startRun('Test/Quick', alice);
    expect((await stack.waitForEnd(id, alice)).status).toBe('SUCCESS');
    const history = await stack.call('GET', '/choreo-executions?status=any', alice);
    expect(history.json().executions.map((entry: { id: string }) => entry.id)).toContain(id);
  });

  it('publishes ends sharded, to the node of their slot, where the API listens: never across the cluster bus', async () => {
    const alice = stack.credentials.alice;
    const endedChannel = `${stack.prefix}:events:execution-ended`;
    const primary = await cluster.primaryFor(endedChannel);
    const node = new Redis({ host: primary.host, port: primary.port });
    const published = async () => {
      const stats = await node.info('commandstats');
      const calls = (command: string) => Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
      return { sharded: calls('spublish'), plain: calls('publish') };
    };
    try {
      // The API waits for sync runs' ends on the shard's node, by a sharded subscription.
      const [channel, subscribers] = (await node.call('PUBSUB', 'SHARDNUMSUB', endedChannel)) as [string, number];
      expect(channel).toBe(endedChannel);
      expect(subscribers).toBeGreaterThanOrEqual(1);
      const before = await published();
      const sync = await stack.call('POST', '/choreos/Test/Quick', alice, { body: '{"inputs": []}' });
      expect(sync.status, sync.text).toBe(200);
      const after = await published();
      expect(after.sharded).toBeGreaterThan(before.sharded);
      expect(after.plain).toBe(before.plain);
    } finally {
      node.disconnect();
    }
  });

  it("tells a watcher a run's events as they happen, sharded like its end", { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const id = await stack.startRun('Test/Waits', alice, { StepMilliseconds: '50' });
    const stream = await openEventStream(stack, id, alice);
    expect(stream.status).toBe(200);
    const events = await stream.waitUntilClosed();
    expect(events.filter((event) => event.event === 'step.ended').length).toBeGreaterThanOrEqual(1);
    expect(events.at(-1)?.event).toBe('execution.ended');
  });

  it('loses no accepted run when the primary of its slot dies, and finishes every run on the promoted replica', { timeout: 180_000 }, async () => {
    const alice = stack.credentials.alice;
    const primary = await cluster.primaryFor(stack.prefix);
    const ids = await Promise.all(Array.from({ length: 6 }, () => stack.startRun('Test/Waits', alice, { StepMilliseconds: '400' })));
    await waitFor(
      async () => {
        const records = await Promise.all(ids.map((id) => stack.executions.get(id)));
        return records.every((record) => record !== undefined && record.nextStep >= 1);
      },
      { timeoutMs: 30_000, what: 'every run to complete a step' },
    );

    await cluster.failOver(primary);
    expect(await cluster.primaryFor(stack.prefix)).not.toBe(primary);
    // The promoted replica has none of its own until the dead primary comes back as one: till
    // then no write is acknowledged, and the runs wait rather than go on unreplicated.
    await cluster.rejoin(primary);

    for (const id of ids) {
      const ended = await stack.waitForEnd(id, alice, 90_000);
      expect(ended.status, `${JSON.stringify(ended)}\n${stack.logs()}`).toBe('SUCCESS');
      const output = (await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json().output;
      expect(output.CompletedSteps).toBe('10');
    }
    // The service carries on: a new run on the promoted primary.
    const after = await stack.startRun('Test/Quick', alice);
    expect((await stack.waitForEnd(after, alice, 30_000)).status).toBe('SUCCESS');
    expect(stack.workers.every((worker) => worker.running)).toBe(true);
    // The API's sharded subscription to ends followed the slot to the promoted primary.
    const endedChannel = `${stack.prefix}:events:execution-ended`;
    const promoted = await cluster.primaryFor(endedChannel);
    const node = new Redis({ host: promoted.host, port: promoted.port });
    try {
      await waitFor(async () => ((await node.call('PUBSUB', 'SHARDNUMSUB', endedChannel)) as [string, number])[1] >= 1, {
        timeoutMs: 30_000,
        what: 'the API to listen for ends on the promoted primary',
      });
    } finally {
      node.disconnect();
    }
  });

  it('npm start with REDIS_CLUSTER_NODES starts no Redis of its own and serves on the Cluster, the admin command line beside it', {
    timeout: 120_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ces-start-cluster-'));
    const env = { REDIS_CLUSTER_NODES: cluster.nodeList, REDIS_PREFIX: '{start-on-cluster}' };
    const { process: start, output } = await startService({ ...env, PORT: String(await findFreePort()), WORKERS: '1', DATA_DIR: dataDir });
    try {
      expect(output()).toContain(`using the Redis Cluster at ${cluster.nodeList}`);
      expect(output()).not.toContain('Redis started on');
      expect(existsSync(join(dataDir, 'redis'))).toBe(false);
      const curlLine = output()
        .split('\n')
        .find((line) => line.startsWith('curl '));
      expect(curlLine, output()).toBeDefined();
      const result = spawnSync('sh', ['-c', `${curlLine} --silent --show-error`], { encoding: 'utf8', timeout: 30_000 });
      expect(result.status, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).execution.status).toBe('SUCCESS');
      const listed = admin(['accounts', 'list', '--json'], { ...env, DATA_DIR: dataDir });
      expect(listed.status, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).accounts.map((entry: { account: string }) => entry.account)).toEqual(['demo']);
    } finally {
      killTree(start);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
