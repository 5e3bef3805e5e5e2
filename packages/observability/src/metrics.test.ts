import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { waitFor, must } from '@ces/testing';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ACCESS_LOG_MESSAGE, accessLogLevel, createAccessLogWriter } from './access-log.ts';
import { registerClusterMetrics } from './cluster-metrics.ts';
import { createDirectLineWriter, jsonString } from './direct-line.ts';
import { createExecutionMetrics } from './execution-metrics.ts';
import { createHttpMetrics } from './http-metrics.ts';
import { createLogger } from './logger.ts';
import { createMetricsRegistry } from './metrics-registry.ts';
import { createRedisMetrics } from './redis-metrics.ts';
import { registerWorkerMetrics } from './worker-metrics.ts';

async function value(registry: ReturnType<typeof createMetricsRegistry>, name: string, labels: Record<string, string> = {}) {
  const metric = await registry.getSingleMetric(name)?.get();
  const match = metric?.values.find((v) => Object.entries(labels).every(([key, wanted]) => String(v.labels[key]) === wanted));
  return match?.value;
}

/** A stream that keeps every line written to it. */
function captureLines() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, sink };
}

describe('metrics registries', () => {
  it('are per process and never collide, unlike the global default registry', async () => {
    const a = createMetricsRegistry({ service: 'api', processMetrics: false });
    const b = createMetricsRegistry({ service: 'api', processMetrics: false });
    const httpA = createHttpMetrics(a);
    createHttpMetrics(b);
    httpA.observe({ method: 'GET', route: '/choreos', status: 200, durationSeconds: 0.01 });
    expect(await value(a, 'ces_http_requests_total', { route: '/choreos', status: '200' })).toBe(1);
    expect(await value(b, 'ces_http_requests_total', { route: '/choreos', status: '200' })).toBeUndefined();
    expect(await a.metrics()).toContain('service="api"');
  });

  it('count requests by method, route and status, the same on every scrape', async () => {
    const registry = createMetricsRegistry({ service: 'api', processMetrics: false });
    const http = createHttpMetrics(registry);
    const series = { method: 'GET', route: '/service-api/1.0/choreo-executions/:id' };
    for (const durationSeconds of [0.001, 0.02, 3]) http.observe({ ...series, status: 200, durationSeconds });
    http.observe({ ...series, status: 404, durationSeconds: 0.002 });
    http.observe({ method: 'POST', route: '/service-api/1.0/choreos/*', status: 202, durationSeconds: 0.004 });
    for (let scrape = 0; scrape < 2; scrape += 1) {
      expect(await value(registry, 'ces_http_requests_total', { ...series, status: '200' })).toBe(3);
      expect(await value(registry, 'ces_http_requests_total', { ...series, status: '404' })).toBe(1);
      expect(await value(registry, 'ces_http_requests_total', { method: 'POST', status: '202' })).toBe(1);
    }
    http.observe({ ...series, status: 200, durationSeconds: 0.001 });
    const text = await registry.metrics();
    expect(text).toContain('ces_http_requests_total{method="GET",route="/service-api/1.0/choreo-executions/:id",status="200",service="api"} 4');
    expect(text).toMatch(/ces_http_request_duration_seconds_bucket\{le="0\.005",service="api",method="GET",route="[^"]+",status="200"\} 2/);
    expect(text).toMatch(/ces_http_request_duration_seconds_count\{service="api",method="GET",route="[^"]+",status="200"\} 4/);
  });

  it('count the requests each limit refuses', async () => {
    const registry = createMetricsRegistry({ service: 'api', processMetrics: false });
    const http = createHttpMetrics(registry);
    http.refused('auth-failures');
    http.refused('auth-failures');
    http.refused('stored-bytes');
    expect(await value(registry, 'ces_requests_refused_total', { limit: 'auth-failures' })).toBe(2);
    expect(await value(registry, 'ces_requests_refused_total', { limit: 'stored-bytes' })).toBe(1);
    expect(await value(registry, 'ces_requests_refused_total', { limit: 'running-executions' })).toBeUndefined();
  });

  it('count executions by Choreo and status, with duration histograms', async () => {
    const registry = createMetricsRegistry({ service: 'worker', processMetrics: false });
    const executions = createExecutionMetrics(registry);
    executions.started('/A');
    executions.ended({ choreo: '/A', status: 'SUCCESS', durationMs: 1500 });
    executions.step({ kind: 'control.wait', ok: true, durationMs: 20 });
    expect(await value(registry, 'ces_executions_started_total', { choreo: '/A' })).toBe(1);
    expect(await value(registry, 'ces_executions_ended_total', { choreo: '/A', status: 'SUCCESS' })).toBe(1);
    const text = await registry.metrics();
    expect(text).toMatch(/ces_execution_duration_seconds_bucket\{le="2\.5",service="worker",choreo="\/A",status="SUCCESS"\} 1/);
    expect(text).toMatch(/ces_execution_duration_seconds_bucket\{le="1",service="worker",choreo="\/A",status="SUCCESS"\} 0/);
    expect(text).toMatch(/ces_step_duration_seconds_count\{service="worker",kind="control.wait",ok="true"\} 1/);
  });

  it('read cluster gauges at scrape time, and drop a failing source without failing the scrape', async () => {
    const registry = createMetricsRegistry({ service: 'api', processMetrics: false });
    let waiting = 3;
    let redisUp = true;
    registerClusterMetrics(
      registry,
      {
        queueCounts: async () => ({ waiting, active: 2, delayed: 1 }),
        oldestWaitingSince: async () => (waiting > 0 ? 10_000 : undefined),
        runningByAccount: async () => {
          if (!redisUp) throw new Error('Redis is away');
          return { acme: 5 };
        },
        storedBytesByAccount: async () => {
          if (!redisUp) throw new Error('Redis is away');
          return { acme: 123_456 };
        },
        liveWorkers: async () => 4,
        waitingExecutions: async () => {
          if (!redisUp) throw new Error('Redis is away');
          return { time: 7, callBack: 2 };
        },
        executionCounts: async () => {
          if (!redisUp) throw new Error('Redis is away');
          return { started: 9, ended: { SUCCESS: 5, ERROR: 2 } };
        },
      },
      () => 70_000,
    );
    expect(await value(registry, 'ces_queue_jobs', { state: 'waiting' })).toBe(3);
    expect(await value(registry, 'ces_queue_oldest_waiting_age_seconds')).toBe(60);
    expect(await value(registry, 'ces_executions_running', { account: 'acme' })).toBe(5);
    expect(await value(registry, 'ces_account_stored_bytes', { account: 'acme' })).toBe(123_456);
    expect(await value(registry, 'ces_workers_live')).toBe(4);
    expect(await value(registry, 'ces_executions_waiting', { for: 'time' })).toBe(7);
    expect(await value(registry, 'ces_executions_waiting', { for: 'call-back' })).toBe(2);
    expect(await value(registry, 'ces_service_executions_started_total')).toBe(9);
    expect(await value(registry, 'ces_service_executions_ended_total', { status: 'ERROR' })).toBe(2);
    waiting = 0;
    redisUp = false;
    expect(await value(registry, 'ces_queue_jobs', { state: 'waiting' })).toBe(0);
    expect(await value(registry, 'ces_queue_oldest_waiting_age_seconds')).toBe(0);
    expect(await value(registry, 'ces_executions_running', { account: 'acme' })).toBeUndefined();
    expect(await value(registry, 'ces_account_stored_bytes', { account: 'acme' })).toBeUndefined();
    expect(await value(registry, 'ces_service_executions_ended_total', { status: 'ERROR' })).toBeUndefined();
    expect(await registry.metrics()).toContain('ces_workers_live{service="api"} 4');
  });

  it('report a worker’s concurrency, current load and deferred takes', async () => {
    const registry = createMetricsRegistry({ service: 'worker', processMetrics: false });
    let active = 1;
    const takes = registerWorkerMetrics(registry, { concurrency: 8, activeCount: () => active });
    expect(await value(registry, 'ces_worker_concurrency')).toBe(8);
    active = 3;
    expect(await value(registry, 'ces_worker_active_executions')).toBe(3);
    expect(await value(registry, 'ces_worker_deferred_takes_total')).toBe(0);
    takes.deferred();
    takes.deferred();
    expect(await value(registry, 'ces_worker_deferred_takes_total')).toBe(2);
  });

  it('count the errors and reconnects of a real Redis connection that cannot connect', async () => {
    // A port that was just free: nothing listens there, so every attempt is refused.
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));

    const registry = createMetricsRegistry({ service: 'api', processMetrics: false });
    const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 20, maxRetriesPerRequest: null });
    createRedisMetrics(registry).instrument(redis, 'api');
    expect(await value(registry, 'ces_redis_errors_total', { connection: 'api' })).toBe(0);
    redis.connect().catch(() => {});
    try {
      await waitFor(async () => ((await value(registry, 'ces_redis_reconnects_total', { connection: 'api' })) ?? 0) >= 2, {
        what: 'reconnection attempts to be counted',
      });
      expect(await value(registry, 'ces_redis_errors_total', { connection: 'api' })).toBeGreaterThanOrEqual(1);
    } finally {
      redis.disconnect();
    }
  });
});

describe('logs', () => {
  it('carry the host name and never a secret field', () => {
    const { lines, sink } = captureLines();
    const logger = createLogger({ name: 'api', level: 'info' }, sink);
    logger.info({ password: 'hunter2-hunter2', credential: { key: 'k-123', name: 'robot' }, authorization: 'Basic abc' }, 'hello');
    const line = JSON.parse(must(lines[0]));
    expect(line).toMatchObject({ msg: 'hello', name: 'api', level: 'info', credential: { name: 'robot' } });
    expect(typeof line.hostname).toBe('string');
    expect(lines[0]).not.toMatch(/hunter2|k-123|Basic abc/);
  });

  it("keep a failed Redis command's name and drop its arguments", () => {
    const { lines, sink } = captureLines();
    const logger = createLogger({ name: 'api', level: 'info' }, sink);
    // What ioredis attaches to a reply error: the command with every argument it was sent.
    const failed = Object.assign(new Error('OOM command not allowed when used memory > maxmemory'), {
      command: { name: 'evalsha', args: ['0123abcd', '3', 'exec:1', '{"Authorization":"Bearer token-123"}'] },
    });
    logger.error({ err: failed }, 'request failed');
    logger.warn({ cause: failed }, 'other key');
    logger.error({ err: new AggregateError([failed], 'all failed') }, 'aggregate');
    expect(JSON.parse(must(lines[0])).err).toMatchObject({ message: expect.stringContaining('OOM'), command: { name: 'evalsha' } });
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).not.toContain('token-123');
  });

  it('drop the string a URL error could not parse, which may hold a password', () => {
    const { lines, sink } = captureLines();
    const logger = createLogger({ name: 'api', level: 'info' }, sink);
    let failed: unknown;
    try {
      new URL('redis://user:Sup3rS3cret@127.0.0.1:notaport');
    } catch (error) {
      failed = error;
    }
    logger.fatal({ err: failed }, 'could not start');
    expect(JSON.parse(must(lines[0])).err).toMatchObject({ code: 'ERR_INVALID_URL' });
    expect(lines[0]).not.toContain('Sup3rS3cret');
  });

  it('build one access line per request, levelled by status, as the logger itself would write it', () => {
    const { lines, sink } = captureLines();
    const logger = createLogger({ name: 'api', level: 'info' }, sink);
    const writeLine = createAccessLogWriter(logger);
    const entry = {
      requestId: 'r1',
      method: 'GET',
      path: '/x/"quoted"\\back\u0001\u2028é\ud800',
      route: '/x/:id',
      status: 404,
      durationMs: 1.26,
      account: 'acme',
      principal: '',
      executionId: undefined,
      choreo: '/Library/Ünïcode',
    };
    writeLine('warn', entry);
    logger.warn({ ...entry, principal: undefined, durationMs: 1.3 }, ACCESS_LOG_MESSAGE);
    writeLine('debug', entry);
    expect(lines).toHaveLength(2);
    expect(must(lines[0]).endsWith('}\n')).toBe(true);
    const [ours, pinos] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(Date.parse(String(must(ours).time))).toBeGreaterThan(0);
    expect({ ...ours, time: 0 }).toEqual({ ...pinos, time: 0 });
    expect(Object.keys(must(ours))).toEqual(Object.keys(must(pinos)));
    expect(ours).toMatchObject({ level: 'warn', msg: 'request', path: entry.path, durationMs: 1.3 });
    expect(ours).not.toHaveProperty('principal');
    expect([accessLogLevel(200), accessLogLevel(404), accessLogLevel(503)]).toEqual(['info', 'warn', 'error']);
  });

  it("write a child logger's direct lines as the child itself would, bindings included, above its level only", () => {
    const { lines, sink } = captureLines();
    const worker = createLogger({ name: 'worker', level: 'info' }, sink).child({ workerId: 'w-1', host: '10.0.0.7' });
    const writeLine = createDirectLineWriter(worker);
    const choreo = '/Library/"Ünï"\\code';
    writeLine('info', `,"executionId":${jsonString('e1')},"choreo":${jsonString(choreo)},"status":"SUCCESS"`, 'execution ended');
    worker.info({ executionId: 'e1', choreo, status: 'SUCCESS' }, 'execution ended');
    writeLine('debug', ',"dropped":true', 'below the level');
    expect(lines).toHaveLength(2);
    const [ours, pinos] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect({ ...ours, time: 0 }).toEqual({ ...pinos, time: 0 });
    expect(Object.keys(must(ours))).toEqual(Object.keys(must(pinos)));
    expect(ours).toMatchObject({ workerId: 'w-1', host: '10.0.0.7', choreo, msg: 'execution ended' });
  });

  it.runIf(existsSync('/dev/full')).each(['natural', 'later'])(
    'stop, without ending the process, when stdout cannot be written (%s)',
    async (ending) => {
      const fixture = fileURLToPath(new URL('./fixtures/write-log-lines.ts', import.meta.url));
      // A full disk: every write fails with ENOSPC.
      const full = openSync('/dev/full', 'w');
      try {
        const child = spawn(process.execPath, [fixture, '5000', ending], { stdio: ['ignore', full, 'pipe'] });
        let stderr = '';
        must(child.stderr).on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        const [code] = (await once(child, 'exit')) as [number | null];
        expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      } finally {
        closeSync(full);
      }
    },
    20_000,
  );

  it.each(['natural', 'exit'])('reach stdout in full and in order, in batches, when a process ends (%s)', async (ending) => {
    const fixture = fileURLToPath(new URL('./fixtures/write-log-lines.ts', import.meta.url));
    // More than one batch, and a remainder still waiting when the process ends. A lost remainder
    // depends on timing, so a few processes are ended.
    const count = 1234;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const { stdout } = await promisify(execFile)(process.execPath, [fixture, String(count), ending], { maxBuffer: 16 * 1024 * 1024 });
      const numbers = stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { line: number }).line);
      expect(numbers).toEqual(Array.from({ length: count }, (_, i) => i));
    }
  });
});
