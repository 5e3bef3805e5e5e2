import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '@ces/local-runtime';
import { createExecutionStore, createKeySpace, type ExecutionStore, type ReplicaAcks } from '@ces/store';
import { Redis } from 'ioredis';
import { round, summarize } from '../latency-summary.ts';
import type { Row } from '../report.ts';
import type { ScenarioContext } from './scenario-context.ts';
import { startRedisServer, storeRun } from './store-run.ts';

const RUNS = 2_000;
const CONCURRENCY = 16;

/** One run's transitions as a worker makes them: accept, take, a checkpoint, the end. */
async function lifecycle(store: ExecutionStore, id: string): Promise<number[]> {
  const now = Date.now();
  const times: number[] = [];
  let at = performance.now();
  const lap = () => {
    const next = performance.now();
    times.push(next - at);
    at = next;
  };
  await store.accept(storeRun(id, '/Bench/Acks', now), { maxRunningPerAccount: 0 });
  lap();
  const lease = randomBytes(8).toString('hex');
  await store.take(id, { host: '127.0.0.1', workerId: 'bench', lease });
  await store.checkpoint(id, { nextStep: 1, entries: [['a', { text: 'x' }]], outputs: {} }, lease);
  lap();
  await store.end(id, { status: 'SUCCESS', outputs: { Out: 'done' }, account: 'bench', lease });
  lap();
  return times;
}

async function measure(store: ExecutionStore): Promise<{ accept: number[]; checkpoint: number[]; end: number[]; runsPerSecond: number }> {
  const accept: number[] = [];
  const checkpoint: number[] = [];
  const end: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < RUNS) {
        next++;
        const [a = 0, c = 0, e = 0] = await lifecycle(store, randomBytes(16).toString('hex'));
        accept.push(a);
        checkpoint.push(c);
        end.push(e);
      }
    }),
  );
  return { accept, checkpoint, end, runsPerSecond: RUNS / ((performance.now() - started) / 1000) };
}

/**
 * The price of REDIS_REPLICA_ACKS=1: a run's transitions (accept; take and a checkpoint; end) made
 * by the store against a primary with one replica on this host, 16 at a time, with and without a
 * replica acknowledging each. The replica is on loopback, so this is the floor of the price: WAIT's
 * round trip and the replication hop, without the network between two hosts.
 */
export async function replicaAcks(context: ScenarioContext): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ces-bench-acks-'));
  const primaryPort = await findFreePort();
  const replicaPort = await findFreePort();
  const primary = startRedisServer(['--port', String(primaryPort), '--dir', dir]);
  const replica = startRedisServer([
    '--port',
    String(replicaPort),
    '--dir',
    dir,
    '--dbfilename',
    'replica.rdb',
    '--replicaof',
    '127.0.0.1',
    String(primaryPort),
  ]);
  const redis = new Redis(primaryPort, '127.0.0.1', { maxRetriesPerRequest: null });
  // Until the primary listens, the client retries; its refusals are not errors of the scenario.
  redis.on('error', () => {});
  try {
    for (const deadline = Date.now() + 20_000; ; ) {
      const info = await redis.info('replication').catch(() => '');
      if (/connected_slaves:1/.test(info) && /state=online/.test(info)) break;
      if (Date.now() > deadline) throw new Error('the replica did not come in sync');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const storeWith = (acks?: ReplicaAcks) =>
      createExecutionStore({
        redis,
        keys: createKeySpace(`{bench-acks-${acks ? 'on' : 'off'}}`),
        retentionSeconds: 300,
        ...(acks ? { replicaAcks: acks } : {}),
      });
    const off = await measure(storeWith());
    const on = await measure(storeWith({ replicas: 1, timeoutMs: 2_000 }));
    context.raw.replicaAcks = { runs: RUNS, concurrency: CONCURRENCY, off: off.runsPerSecond, on: on.runsPerSecond };
    const scenario = '17 replica acks';
    const p50 = (samples: number[]) => round(summarize(samples).p50, 2);
    const p99 = (samples: number[]) => round(summarize(samples).p99, 2);
    const rows: Row[] = [];
    for (const [figure, pick] of [
      ['accept', (m: typeof on) => m.accept],
      ['take + checkpoint', (m: typeof on) => m.checkpoint],
      ['end', (m: typeof on) => m.end],
    ] as const) {
      rows.push({
        scenario,
        figure: `${figure} p50 with REDIS_REPLICA_ACKS=1 (p99 in details)`,
        unit: 'ms',
        value: p50(pick(on)),
        baseline: { label: 'without', value: p50(pick(off)) },
        details: { p99: p99(pick(on)), p99Without: p99(pick(off)) },
      });
    }
    rows.push({
      scenario,
      figure: `runs' transitions per second, ${CONCURRENCY} at a time, with REDIS_REPLICA_ACKS=1`,
      unit: 'runs/s',
      value: round(on.runsPerSecond, 0),
      baseline: { label: 'without', value: round(off.runsPerSecond, 0) },
    });
    return rows;
  } finally {
    redis.disconnect();
    for (const server of [replica, primary]) {
      server.kill('SIGKILL');
      await once(server, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
