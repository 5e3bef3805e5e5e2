import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { findFreePort } from './redis-server.ts';

export interface ClusterNode {
  host: string;
  port: number;
  process: ChildProcess;
  /** How it was started, to start it again on its own cluster configuration. */
  args: string[];
}

export interface LocalRedisCluster {
  nodes: ClusterNode[];
  /** `host:port,…` of every node, as REDIS_CLUSTER_NODES takes them. */
  nodeList: string;
  /** The node that is primary for the slot of `key` now. */
  primaryFor(key: string): Promise<ClusterNode>;
  /** Kills a node outright and waits until the cluster has promoted a replica in its place. */
  failOver(node: ClusterNode): Promise<void>;
  /** Starts a dead node again; it rejoins as a replica, and this resolves once it is in sync. */
  rejoin(node: ClusterNode): Promise<void>;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

/** Polls `probe` every `intervalMs` until it holds; throws naming `what` after `timeoutMs`. */
async function waitFor(probe: () => Promise<boolean>, options: { timeoutMs: number; intervalMs: number; what: string }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${options.what}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
  }
}

/** What ROLE answers on a node (a replica's fourth field is its link: `connected` once in sync); undefined when it does not answer. */
async function roleOf(node: { host: string; port: number }): Promise<[string, string, number, string] | undefined> {
  const client = nodeClient(node);
  try {
    return (await client.call('ROLE')) as [string, string, number, string];
  } catch {
    return undefined;
  } finally {
    client.disconnect();
  }
}

/** A one-off client of one node that neither reconnects nor reports its errors as unhandled. */
function nodeClient(node: { host: string; port: number }, lazyConnect = false): Redis {
  const client = new Redis({ host: node.host, port: node.port, lazyConnect, retryStrategy: () => null });
  client.on('error', () => {});
  return client;
}

/**
 * A real Redis Cluster of `primaries` primaries, each with one replica, made of redis-server
 * processes on free loopback ports (no Docker), with a short node timeout so that a failover takes
 * a second or two: for the tests and the benchmark.
 */
export async function startRedisCluster(options: { primaries?: number } = {}): Promise<LocalRedisCluster> {
  const primaries = options.primaries ?? 3;
  const dir = mkdtempSync(join(tmpdir(), 'ces-cluster-'));
  const nodes: ClusterNode[] = [];
  const taken = new Set<number>();
  /** A port no node of this Cluster has (a free port is found free, then bound a moment later). */
  const freshPort = async (): Promise<number> => {
    for (;;) {
      const port = await findFreePort();
      if (!taken.has(port)) {
        taken.add(port);
        return port;
      }
    }
  };
  const startNode = async (): Promise<ClusterNode> => {
    const port = await freshPort();
    const busPort = await freshPort();
    const args = [
      ...['--port', String(port), '--bind', HOST, '--cluster-enabled', 'yes', '--cluster-port', String(busPort)],
      ...['--cluster-config-file', join(dir, `nodes-${port}.conf`), '--cluster-node-timeout', '1000', '--dir', dir],
      ...['--dbfilename', `dump-${port}.rdb`, '--save', '', '--appendonly', 'no', '--cluster-replica-validity-factor', '0'],
      // A shard whose primary is down stops only its own runs: the other slots are served meanwhile.
      ...['--cluster-require-full-coverage', 'no'],
    ];
    return { host: HOST, port, process: spawn('redis-server', args, { stdio: 'ignore' }), args };
  };
  for (let i = 0; i < primaries * 2; i++) nodes.push(await startNode());
  const alive = () => nodes.filter((node) => node.process.exitCode === null && node.process.signalCode === null);
  const stopAll = async () => {
    await Promise.all(
      alive().map(async (node) => {
        node.process.kill('SIGKILL');
        await once(node.process, 'exit');
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  const clusterOk = async (node: ClusterNode) => {
    const client = nodeClient(node);
    try {
      // Every slot served by a primary that is up: with cluster-require-full-coverage no the state
      // stays ok while a failed primary's slots wait for its replica.
      const info = await client.cluster('INFO');
      return /cluster_state:ok/.test(info) && /cluster_slots_ok:16384\b/.test(info);
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  };
  const inSync = async (node: ClusterNode) => {
    const role = await roleOf(node);
    return role?.[0] === 'master' || role?.[3] === 'connected';
  };
  try {
    await waitFor(
      async () => {
        // A node whose port was taken between the look and its bind has exited: it starts again on others.
        for (const [i, node] of nodes.entries()) if (node.process.exitCode !== null) nodes[i] = await startNode();
        for (const node of nodes) {
          const probe = nodeClient(node, true);
          try {
            await probe.connect();
            await probe.ping();
          } catch {
            return false;
          } finally {
            probe.disconnect();
          }
        }
        return true;
      },
      { timeoutMs: 10_000, intervalMs: 50, what: 'every node answering' },
    );
    const created = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...nodes.map((node) => `${node.host}:${node.port}`), '--cluster-replicas', '1', '--cluster-yes'],
      { encoding: 'utf8' },
    );
    if (created.error) throw new Error(`redis-cli could not be run (${created.error.message}): a local Cluster is created with it (Debian: redis-tools)`);
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    await waitFor(async () => (await Promise.all(nodes.map(clusterOk))).every(Boolean), { timeoutMs: 20_000, intervalMs: 100, what: 'cluster_state:ok' });
    // Every replica in sync with its primary: until then a write that waits for a replica
    // (REDIS_REPLICA_ACKS) is not acknowledged, and the service answers 503.
    await waitFor(async () => (await Promise.all(nodes.map(inSync))).every(Boolean), { timeoutMs: 30_000, intervalMs: 100, what: 'every replica in sync' });
  } catch (error) {
    // A Cluster that did not come up leaves no server behind.
    await stopAll();
    throw error;
  }

  async function primaryFor(key: string): Promise<ClusterNode> {
    for (const node of alive()) {
      const client = nodeClient(node);
      try {
        const slot = Number(await client.cluster('KEYSLOT', key));
        const role = (await client.call('ROLE')) as [string];
        if (role[0] !== 'master') continue;
        const shards = await client.cluster('SLOTS');
        for (const [from, to, primary] of shards) {
          const [host, port] = primary ?? [];
          if (slot >= from && slot <= to) {
            const found = nodes.find((candidate) => candidate.port === port && candidate.host === host);
            if (found) return found;
          }
        }
      } catch {
        // A node that is going away: ask another.
      } finally {
        client.disconnect();
      }
    }
    throw new Error(`no primary serves the slot of ${key}`);
  }

  return {
    nodes,
    nodeList: nodes.map((node) => `${node.host}:${node.port}`).join(','),
    primaryFor,
    async failOver(node) {
      node.process.kill('SIGKILL');
      await once(node.process, 'exit');
      // Every node that is left must have marked it failed (not only suspected, `fail?`) and see
      // every slot served again, by the promoted replica.
      const seesItFailed = async (other: ClusterNode) => {
        const client = nodeClient(other);
        try {
          const line = ((await client.cluster('NODES')) as string).split('\n').find((entry) => entry.includes(`:${node.port}@`));
          return line !== undefined && /[ ,]fail[ ,]/.test(line);
        } catch {
          return false;
        } finally {
          client.disconnect();
        }
      };
      await waitFor(
        async () => {
          const others = alive();
          return (await Promise.all(others.map(seesItFailed))).every(Boolean) && (await Promise.all(others.map(clusterOk))).every(Boolean);
        },
        { timeoutMs: 30_000, intervalMs: 100, what: 'the replica promoted' },
      );
    },
    async rejoin(node) {
      node.process = spawn('redis-server', node.args, { stdio: 'ignore' });
      await waitFor(
        async () => {
          const role = await roleOf(node);
          return role?.[0] === 'slave' && role[3] === 'connected';
        },
        { timeoutMs: 30_000, intervalMs: 100, what: `${node.host}:${node.port} to rejoin as a replica in sync` },
      );
    },
    close: stopAll,
  };
}
