import { Redis } from 'ioredis';
import type { BenchStack } from '../bench-stack.ts';
import { round } from '../latency-summary.ts';
import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { measureServiceThroughput, type Throughput } from './async-throughput.ts';
import { BASE64_BODY, BASE64_ENCODE, runJob, type ScenarioContext } from './scenario-context.ts';

/** Sync runs one at a time, at most this many a phase. */
const MAX_SYNC_RUNS = 5_000;

type Side = 'single' | 'oneShard' | 'acked' | 'threeShards';

interface Measured {
  async: Throughput[];
  syncP50Ms: number[];
  syncP99Ms: number[];
}

/** Async throughput (scenario 1's service side), then sync latency one run at a time, on one stack. */
async function measure(context: ScenarioContext, into: Measured): Promise<void> {
  into.async.push(await measureServiceThroughput(context));
  const sync = await runLoad(
    runJob(context, BASE64_ENCODE, {
      async: false,
      connections: 1,
      durationMs: context.durationMs / 2,
      warmupMs: 500,
      maxRequests: MAX_SYNC_RUNS,
      body: BASE64_BODY,
    }),
  );
  if (sync.firstError) context.log(`  sync: ${sync.firstError}`);
  into.syncP50Ms.push(sync.latencyMs.p50);
  into.syncP99Ms.push(sync.latencyMs.p99);
}

const mean = (values: number[]) => round(values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1), 2);

/** The port of the primary a node replicates, or undefined for a primary. */
async function primaryPortOf(node: { host: string; port: number }): Promise<number | undefined> {
  const client = new Redis({ host: node.host, port: node.port, lazyConnect: true, retryStrategy: () => null });
  try {
    await client.connect();
    const role = (await client.call('ROLE')) as [string, string, number];
    return role[0] === 'slave' ? Number(role[2]) : undefined;
  } finally {
    client.disconnect();
  }
}

/** The key prefix of each shard of a stack's service, by index, as its registry holds them. */
async function shardPrefixes(stack: BenchStack): Promise<string[]> {
  const registered = await stack.redis.hgetall(stack.keys.shards());
  const prefixes = [stack.keys.prefix];
  for (let index = 1; registered[String(index)] !== undefined; index += 1) prefixes.push(registered[String(index)] as string);
  return prefixes;
}

/** CPU per run of each Redis process of the Cluster, named by its part in serving the shards' slots. */
async function clusterCpuPerRun(stack: BenchStack, runs: Throughput[]): Promise<Record<string, number>> {
  const cluster = stack.cluster;
  if (!cluster) return {};
  const shardOfPrimary = new Map<number, number>();
  for (const [index, prefix] of (await shardPrefixes(stack)).entries()) shardOfPrimary.set((await cluster.primaryFor(`${prefix}:running`)).port, index);
  const named: Record<string, number> = {};
  for (const node of cluster.nodes) {
    const perRun = mean(runs.map((one) => one.cpuMsPerRun[`redis:${node.port}`] ?? 0));
    const primary = await primaryPortOf(node);
    const shard = shardOfPrimary.get(node.port);
    const followed = primary === undefined ? undefined : shardOfPrimary.get(primary);
    const part =
      shard !== undefined ? `shard ${shard} primary` : followed !== undefined ? `shard ${followed} replica` : primary ? 'other replica' : 'other primary';
    named[`${part} ${node.port}`] = round(perRun, 3);
  }
  return named;
}

/**
 * Scenario 18: the service on a six-node Redis Cluster (three primaries, a replica each;
 * REDIS_CLUSTER_NODES) with one shard (QUEUE_SHARDS=1: every key under one hash tag) and with
 * three (a tag on each primary), and with one shard and REDIS_REPLICA_ACKS=1, beside the same
 * service on the single Redis, in mirrored rounds (single, one shard, acked, three shards; and
 * back): async throughput and sync
 * latency, and the CPU per run of every Cluster node, which shows the load split over the
 * primaries. The Cluster's processes share the two cores with the service, so the figures are
 * the price of the Cluster and the split of its load, not a Cluster's capacity.
 */
export async function redisClusterBeside(context: ScenarioContext): Promise<Row[]> {
  const stacks: BenchStack[] = [];
  const started = async (shards: number, env: Record<string, string> = {}) => {
    try {
      const stack = await context.startClusterStack(3, shards, env);
      stacks.push(stack);
      return stack;
    } catch (error) {
      await Promise.all(stacks.map((stack) => stack.close()));
      throw error;
    }
  };
  const oneShard = await started(1);
  // The price of REDIS_REPLICA_ACKS=1: the same one-shard service, each accept, checkpoint and end
  // waiting for the shard's replica, and a synchronous answer for its end's.
  const acked = await started(1, { REDIS_REPLICA_ACKS: '1' });
  const threeShards = await started(3);
  const sides: Record<Side, ScenarioContext> = {
    single: context,
    oneShard: { ...context, stack: oneShard },
    acked: { ...context, stack: acked },
    threeShards: { ...context, stack: threeShards },
  };
  const empty = (): Measured => ({ async: [], syncP50Ms: [], syncP99Ms: [] });
  const measured: Record<Side, Measured> = { single: empty(), oneShard: empty(), acked: empty(), threeShards: empty() };
  const perNode: Partial<Record<Side, Record<string, number>>> = {};
  try {
    const order = ['single', 'oneShard', 'acked', 'threeShards'] as const;
    for (const side of [...order, ...[...order].reverse()]) await measure(sides[side], measured[side]);
    perNode.oneShard = await clusterCpuPerRun(oneShard, measured.oneShard.async);
    perNode.threeShards = await clusterCpuPerRun(threeShards, measured.threeShards.async);
  } finally {
    await Promise.all(stacks.map((stack) => stack.close()));
  }
  const completed = (side: Side) => mean(measured[side].async.map((one) => one.completedPerSecond));
  const singleRedisCpu = mean(measured.single.async.map((one) => one.cpuMsPerRun.redis ?? 0));
  const primaries = (side: Side) =>
    Object.entries(perNode[side] ?? {})
      .filter(([name]) => / primary /.test(name))
      .map(([name, cpu]) => `${name.replace(/ \d+$/, '')} ${cpu}`)
      .sort()
      .join(', ');
  const primaryCpu = (side: Side) =>
    round(
      Object.entries(perNode[side] ?? {})
        .filter(([name]) => / primary /.test(name))
        .reduce((sum, [, cpu]) => sum + cpu, 0),
      3,
    );
  context.raw.redisCluster = { measured, perNode };
  const rows: Row[] = [];
  for (const [side, label] of [
    ['oneShard', '18 Redis Cluster, one shard'],
    ['threeShards', '18 Redis Cluster, three shards'],
  ] as const) {
    rows.push(
      {
        scenario: label,
        figure: 'async completed',
        unit: '/s',
        value: completed(side),
        baseline: { label: 'single Redis', value: completed('single') },
        details: { rounds: measured[side].async.map((one, index) => [measured.single.async[index]?.completedPerSecond, one.completedPerSecond]) },
      },
      {
        scenario: label,
        figure: 'sync p50',
        unit: 'ms',
        value: mean(measured[side].syncP50Ms),
        baseline: { label: 'single Redis', value: mean(measured.single.syncP50Ms) },
        details: { p99: mean(measured[side].syncP99Ms), singleP99: mean(measured.single.syncP99Ms) },
      },
      {
        scenario: label,
        figure: `Redis CPU per run, the shards' primaries (${primaries(side)})`,
        unit: 'ms',
        value: primaryCpu(side),
        baseline: { label: 'single Redis', value: singleRedisCpu },
        details: { perNode: perNode[side] },
      },
    );
  }
  rows.push(
    {
      scenario: '18 Redis Cluster, one shard, REDIS_REPLICA_ACKS=1',
      figure: 'sync p50',
      unit: 'ms',
      value: mean(measured.acked.syncP50Ms),
      baseline: { label: 'one shard without', value: mean(measured.oneShard.syncP50Ms) },
      details: { p99: mean(measured.acked.syncP99Ms), withoutP99: mean(measured.oneShard.syncP99Ms) },
    },
    {
      scenario: '18 Redis Cluster, one shard, REDIS_REPLICA_ACKS=1',
      figure: 'async completed',
      unit: '/s',
      value: completed('acked'),
      baseline: { label: 'one shard without', value: completed('oneShard') },
      details: { rounds: measured.acked.async.map((one, index) => [measured.oneShard.async[index]?.completedPerSecond, one.completedPerSecond]) },
    },
  );
  return rows;
}
