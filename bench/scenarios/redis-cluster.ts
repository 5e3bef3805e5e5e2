import { Redis } from 'ioredis';
import type { BenchStack } from '../bench-stack.ts';
import { round } from '../latency-summary.ts';
import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { measureServiceThroughput, type Throughput } from './async-throughput.ts';
import { BASE64_BODY, BASE64_ENCODE, runJob, type ScenarioContext } from './scenario-context.ts';

/** Sync runs one at a time, at most this many a phase. */
const MAX_SYNC_RUNS = 5_000;

type Side = 'single' | 'cluster';

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

/** CPU per run of each Redis process of the Cluster, named by its part in serving the service's slot. */
async function clusterCpuPerRun(stack: BenchStack, runs: Throughput[]): Promise<Record<string, number>> {
  const cluster = stack.cluster;
  if (!cluster) return {};
  const shardPrimary = await cluster.primaryFor(stack.keys.running());
  const named: Record<string, number> = {};
  for (const node of cluster.nodes) {
    const perRun = mean(runs.map((one) => one.cpuMsPerRun[`redis:${node.port}`] ?? 0));
    const primary = await primaryPortOf(node);
    const part =
      node.port === shardPrimary.port
        ? 'shard primary'
        : primary === shardPrimary.port
          ? "shard primary's replica"
          : primary
            ? 'other replica'
            : 'other primary';
    named[`${part} ${node.port}`] = round(perRun, 3);
  }
  return named;
}

/**
 * Scenario 18: the service on a six-node Redis Cluster (three primaries, a replica each;
 * REDIS_CLUSTER_NODES), all its keys under one hash tag as today (one shard), beside the same
 * service on the single Redis, in mirrored rounds (single, Cluster; Cluster, single): async
 * throughput and sync latency, and the CPU per run of every Cluster node. The Cluster's six
 * processes share the two cores with the service, so this is the price of the Cluster client and
 * of a replica following the primary, not a Cluster's capacity.
 */
export async function redisClusterBeside(context: ScenarioContext): Promise<Row[]> {
  const clusterStack = await context.startClusterStack(3);
  const sides: Record<Side, ScenarioContext> = { single: context, cluster: { ...context, stack: clusterStack } };
  const measured: Record<Side, Measured> = {
    single: { async: [], syncP50Ms: [], syncP99Ms: [] },
    cluster: { async: [], syncP50Ms: [], syncP99Ms: [] },
  };
  let perNode: Record<string, number>;
  try {
    for (const side of ['single', 'cluster', 'cluster', 'single'] as const) await measure(sides[side], measured[side]);
    perNode = await clusterCpuPerRun(clusterStack, measured.cluster.async);
  } finally {
    await clusterStack.close();
  }
  const completed = (side: Side) => mean(measured[side].async.map((one) => one.completedPerSecond));
  const singleRedisCpu = mean(measured.single.async.map((one) => one.cpuMsPerRun.redis ?? 0));
  const shardPrimaryCpu = Object.entries(perNode).find(([name]) => name.startsWith('shard primary'))?.[1] ?? 0;
  const scenario = '18 Redis Cluster, one shard';
  context.raw.redisCluster = { measured, perNode };
  return [
    {
      scenario,
      figure: 'async completed',
      unit: '/s',
      value: completed('cluster'),
      baseline: { label: 'single Redis', value: completed('single') },
      details: { rounds: measured.cluster.async.map((one, index) => [measured.single.async[index]?.completedPerSecond, one.completedPerSecond]) },
    },
    {
      scenario,
      figure: 'sync p50',
      unit: 'ms',
      value: mean(measured.cluster.syncP50Ms),
      baseline: { label: 'single Redis', value: mean(measured.single.syncP50Ms) },
      details: { p99: mean(measured.cluster.syncP99Ms), singleP99: mean(measured.single.syncP99Ms) },
    },
    {
      scenario,
      figure: "Redis CPU per run, the shard's primary",
      unit: 'ms',
      value: shardPrimaryCpu,
      baseline: { label: 'single Redis', value: singleRedisCpu },
      details: { perNode },
    },
  ];
}
