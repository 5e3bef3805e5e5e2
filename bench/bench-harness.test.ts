import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSelfSignedCertificate, findFreePort } from '@ces/local-runtime';
import { deleteKeysWithPrefix, isolatedPrefix, waitFor } from '@ces/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startBenchProcess, type BenchProcess } from './bench-process.ts';
import { httpsJson } from './bench-stack.ts';
import { summarize } from './latency-summary.ts';
import { addCpuMs, sharedCpuMs } from './cpu-usage.ts';
import { addRedisWork, NO_REDIS_WORK, redisWorkPerOperation, redisWorkSnapshot } from './redis-work.ts';
import { evaluate, formatTable } from './report.ts';
import { runLoad } from './run-load.ts';
import { alternatingRounds, ROUNDS } from './scenarios/alternating-rounds.ts';
import type { ScenarioContext } from './scenarios/scenario-context.ts';

// The harness itself, not the figures: targets are judged by `npm run bench`, never here.
const ROOT = fileURLToPath(new URL('../', import.meta.url));

describe('benchmark report', () => {
  it('takes nearest-rank percentiles, so p99 of few samples is the worst one', () => {
    const summary = summarize([5, 1, 4, 2, 3, 10, 6, 7, 8, 9]);
    expect(summary).toMatchObject({ count: 10, p50: 5, p90: 9, p99: 10, max: 10, mean: 5.5 });
    expect(summarize([])).toMatchObject({ count: 0, p99: 0 });
  });

  it('judges each kind of target against its baseline', () => {
    const ratio = { scenario: 's', figure: 'f', unit: '/s', target: { kind: 'at-least-ratio', factor: 0.5 } as const };
    expect(evaluate({ ...ratio, value: 60, baseline: { label: 'b', value: 100 } })).toMatchObject({ ratio: 0.6, pass: true });
    expect(evaluate({ ...ratio, value: 40, baseline: { label: 'b', value: 100 } })).toMatchObject({ ratio: 0.4, pass: false });
    const plus = { scenario: 's', figure: 'p50', unit: 'ms', target: { kind: 'at-most-baseline-plus', amount: 2 } as const };
    expect(evaluate({ ...plus, value: 5, baseline: { label: 'b', value: 3 } }).pass).toBe(true);
    expect(evaluate({ ...plus, value: 5.1, baseline: { label: 'b', value: 3 } }).pass).toBe(false);
    const limit = { scenario: 's', figure: 'p99', unit: 'ms', target: { kind: 'at-most', limit: 50 } as const };
    expect(evaluate({ ...limit, value: 50 }).pass).toBe(true);
    expect(evaluate({ ...limit, value: 51 }).pass).toBe(false);
    expect(evaluate({ scenario: 's', figure: 'f', unit: 'B', value: 1 }).pass).toBeUndefined();
  });

  it('prints one line per figure with its verdict', () => {
    const table = formatTable([
      evaluate({ scenario: '1 a', figure: 'x', unit: '/s', value: 10, baseline: { label: 'b', value: 100 }, target: { kind: 'at-least-ratio', factor: 0.5 } }),
      evaluate({ scenario: '2 b', figure: 'y', unit: 'ms', value: 1, target: { kind: 'at-most', limit: 2 } }),
    ]);
    const lines = table.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/1 a .*0\.10× .*FAIL/);
    expect(lines[3]).toMatch(/2 b .*PASS/);
  });

  it('measures every side once a round, in the order given, and splits the measured time between rounds', async () => {
    const order: string[] = [];
    const context = { durationMs: 8_000 } as ScenarioContext;
    const measured = await alternatingRounds(context, ['service', 'raw', 'producer'] as const, async (side, roundMs) => {
      order.push(side);
      return { side, roundMs, round: order.filter((s) => s === side).length };
    });
    expect(order).toEqual(Array.from({ length: ROUNDS }, () => ['service', 'raw', 'producer']).flat());
    expect(measured.producer.map((m) => m.round)).toEqual(Array.from({ length: ROUNDS }, (_, i) => i + 1));
    expect(measured.raw.every((m) => m.side === 'raw' && m.roundMs === 8_000 / ROUNDS)).toBe(true);
  });

  it('measures mirrored rounds in the reverse order every other round', async () => {
    const order: string[] = [];
    const context = { durationMs: 8_000 } as ScenarioContext;
    await alternatingRounds(context, ['without', 'with'] as const, async (side) => order.push(side), { mirrored: true });
    expect(order).toEqual(Array.from({ length: ROUNDS }, (_, round) => (round % 2 === 0 ? ['without', 'with'] : ['with', 'without'])).flat());
  });

  it('shares what Redis did over the operations, scripts and the commands inside them alike', () => {
    const before = { commands: { evalsha: 10, hset: 40, get: 5 }, reads: 100, writes: 100, inputBytes: 1_000, outputBytes: 500 };
    const after = { commands: { evalsha: 30, hset: 80, get: 5, zadd: 1 }, reads: 110, writes: 112, inputBytes: 6_004, outputBytes: 1_500 };
    expect(redisWorkPerOperation(before, after, 10)).toEqual({
      commands: 6.1,
      scripts: 2,
      reads: 1,
      writes: 1.2,
      inputBytes: 500,
      outputBytes: 100,
      byCommand: { hset: 4, evalsha: 2, zadd: 0.1 },
    });
  });

  it('adds up the work of phases measured apart, and not what happened between them', () => {
    const first = [
      { commands: { hset: 10 }, reads: 5, writes: 5, inputBytes: 100, outputBytes: 10 },
      { commands: { hset: 30, get: 2 }, reads: 9, writes: 8, inputBytes: 500, outputBytes: 50 },
    ] as const;
    // Between the phases the other side ran 1000 HSETs; they are not the service's.
    const second = [
      { commands: { hset: 1030, get: 2 }, reads: 50, writes: 50, inputBytes: 9_000, outputBytes: 900 },
      { commands: { hset: 1050, get: 6 }, reads: 52, writes: 51, inputBytes: 9_200, outputBytes: 930 },
    ] as const;
    const total = addRedisWork(addRedisWork(NO_REDIS_WORK, ...first), ...second);
    expect(total).toEqual({ commands: { hset: 40, get: 6 }, reads: 6, writes: 4, inputBytes: 600, outputBytes: 70 });
    expect(redisWorkPerOperation(NO_REDIS_WORK, total, 4)).toMatchObject({ commands: 11.5, reads: 1.5, writes: 1, inputBytes: 150 });

    const cpuMs = addCpuMs(addCpuMs({}, { api: 10, worker: 4 }), { api: 2, redis: 3 });
    expect(cpuMs).toEqual({ api: 12, worker: 4, redis: 3 });
    expect(sharedCpuMs(cpuMs, 8)).toEqual({ api: 1.5, worker: 0.5, redis: 0.375 });
  });
});

describe('load generator against real processes', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ces-bench-test-'));
  const prefix = isolatedPrefix('bench');
  const processes: BenchProcess[] = [];
  let origin = '';
  let producerOrigin = '';
  let caFile = '';
  let redis: Redis;
  let queue: Queue;

  beforeAll(async () => {
    const tls = await ensureSelfSignedCertificate(dataDir);
    caFile = tls.certFile;
    const port = await findFreePort();
    origin = `https://127.0.0.1:${port}`;
    const producerPort = await findFreePort();
    producerOrigin = `https://127.0.0.1:${producerPort}`;
    redis = new Redis(inject('redisUrl'));
    processes.push(
      startBenchProcess({
        name: 'bare-hono',
        entry: join(ROOT, 'bench/bare-hono-server.ts'),
        args: [JSON.stringify({ port, certFile: tls.certFile, keyFile: tls.keyFile })],
        cwd: ROOT,
        logFile: join(dataDir, 'bare-hono.log'),
        env: {},
      }),
      startBenchProcess({
        name: 'noop-worker',
        entry: join(ROOT, 'bench/bullmq-noop-worker.ts'),
        args: [JSON.stringify({ redisUrl: inject('redisUrl'), prefix, queue: 'q', concurrency: 2 })],
        cwd: ROOT,
        logFile: join(dataDir, 'noop-worker.log'),
        env: {},
      }),
      startBenchProcess({
        name: 'https-producer',
        entry: join(ROOT, 'bench/https-producer-server.ts'),
        args: [JSON.stringify({ port: producerPort, certFile: tls.certFile, keyFile: tls.keyFile, redisUrl: inject('redisUrl'), prefix, queue: 'q' })],
        cwd: ROOT,
        logFile: join(dataDir, 'https-producer.log'),
        env: {},
      }),
    );
    queue = new Queue('q', { connection: redis, prefix });
    await waitFor(async () => (await queue.getWorkersCount()) >= 1, { timeoutMs: 30_000, what: 'the no-op worker' });
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await queue?.close();
    if (redis) {
      await deleteKeysWithPrefix(redis, prefix);
      redis.disconnect();
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops by itself at its request count, over HTTPS keep-alive', async () => {
    const result = await runLoad({
      kind: 'http',
      origin,
      caFile,
      connections: 4,
      durationMs: 60_000,
      maxRequests: 40,
      request: { method: 'GET', path: '/anything', headers: { accept: 'application/json' } },
      okStatuses: [200],
    });
    expect(result).toMatchObject({ kind: 'http', count: 40, ok: 40, statuses: { '200': 40 } });
    expect(result.latencyMs.count).toBe(40);
    expect(result.latencyMs.p99).toBeGreaterThan(0);
    expect(result.generatorCpuMs).toBeGreaterThan(0);
  });

  it('counts answers outside the expected statuses as failures', async () => {
    const result = await runLoad({
      kind: 'http',
      origin,
      caFile,
      connections: 1,
      durationMs: 60_000,
      maxRequests: 3,
      request: { method: 'GET', path: '/anything', headers: {} },
      okStatuses: [204],
    });
    expect(result).toMatchObject({ count: 3, ok: 0 });
    expect(result.firstError).toMatch(/^HTTP 200/);
  });

  it("reads Redis's own counters of commands, reads, writes and bytes", async () => {
    const before = await redisWorkSnapshot(redis);
    await Promise.all(Array.from({ length: 10 }, () => redis.incr(`${prefix}:counted`)));
    const after = await redisWorkSnapshot(redis);
    // Other test files share this Redis: at least what this test sent.
    expect((after.commands.incr ?? 0) - (before.commands.incr ?? 0)).toBeGreaterThanOrEqual(10);
    expect(after.reads).toBeGreaterThan(before.reads);
    expect(after.writes).toBeGreaterThan(before.writes);
    expect(after.inputBytes - before.inputBytes).toBeGreaterThanOrEqual(10 * `${prefix}:counted`.length);
    expect(after.outputBytes).toBeGreaterThan(before.outputBytes);
  });

  it('runs raw BullMQ add + wait-until-finished round trips against a no-op worker', async () => {
    const result = await runLoad({ kind: 'bullmq-sync', redisUrl: inject('redisUrl'), prefix, queue: 'q', durationMs: 60_000, maxJobs: 10 });
    expect(result).toMatchObject({ kind: 'bullmq-sync', count: 10, ok: 10 });
    expect(result.firstError).toBeUndefined();
  });

  /** Ids of the jobs with such an event so far, from BullMQ's event stream (jobs are removed on completion). */
  async function jobIdsWithEvent(event: 'added' | 'completed'): Promise<Set<string>> {
    const events = await redis.xrange(queue.keys.events ?? '', '-', '+');
    const ids = new Set<string>();
    for (const [, fields] of events) {
      const record: Record<string, string> = {};
      for (let i = 0; i + 1 < fields.length; i += 2) record[fields[i] ?? ''] = fields[i + 1] ?? '';
      if (record.event === event && record.jobId) ids.add(record.jobId);
    }
    return ids;
  }
  const completedJobIds = () => jobIdsWithEvent('completed');

  it("queues over HTTPS a job that the no-op worker runs: the async scenario's HTTPS producer baseline", async () => {
    const ca = readFileSync(caFile, 'utf8');
    const ready = async () => (await httpsJson(`${producerOrigin}/`, ca, { method: 'POST', body: JSON.stringify({ inputs: [] }) }).catch(() => undefined))?.id;
    await waitFor(async () => typeof (await ready()) === 'string', { timeoutMs: 30_000, what: 'the HTTPS producer' });

    const answer = await httpsJson(`${producerOrigin}/service-api/1.0/choreos/Anything?mode=async`, ca, {
      method: 'POST',
      body: JSON.stringify({ inputs: [{ name: 'Text', value: 'abc' }] }),
    });
    const id = String(answer.id);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    await waitFor(async () => (await completedJobIds()).has(id), { timeoutMs: 30_000, what: `job ${id} completed by the no-op worker` });

    const addedBefore = await jobIdsWithEvent('added');
    const result = await runLoad({
      kind: 'http',
      origin: producerOrigin,
      caFile,
      connections: 4,
      durationMs: 60_000,
      maxRequests: 20,
      request: {
        method: 'POST',
        path: '/service-api/1.0/choreos/Anything?mode=async',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ inputs: [{ name: 'Text', value: 'abc' }] }),
      },
      okStatuses: [202],
    });
    expect(result).toMatchObject({ count: 20, ok: 20, statuses: { '202': 20 } });
    const queued = [...(await jobIdsWithEvent('added'))].filter((jobId) => !addedBefore.has(jobId));
    expect(queued).toHaveLength(20);
    await waitFor(
      async () => {
        const completed = await completedJobIds();
        return queued.every((jobId) => completed.has(jobId));
      },
      { timeoutMs: 30_000, what: 'the 20 jobs completed by the no-op worker' },
    );
  });

  it('refuses a body without inputs and queues nothing', async () => {
    const ca = readFileSync(caFile, 'utf8');
    const addedBefore = (await jobIdsWithEvent('added')).size;
    const answer = await httpsJson(`${producerOrigin}/`, ca, { method: 'POST', body: JSON.stringify({ text: 'abc' }) });
    expect(answer).toEqual({ error: 'inputs must be an array' });
    // The handler answers after its add, so a job it had queued would be in the stream by now.
    expect((await jobIdsWithEvent('added')).size).toBe(addedBefore);
  });
});
