import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHealthServer, type HealthServer } from './health-server.ts';
import { createWorkerMetrics } from './worker-metrics.ts';

describe('worker health server', () => {
  let server: HealthServer;
  let reasons: string[] = ['starting'];
  let active = 0;
  const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;

  beforeAll(async () => {
    const metrics = createWorkerMetrics({ concurrency: 4, activeCount: () => active });
    metrics.executions.ended({ choreo: '/Library/A', status: 'SUCCESS', durationMs: 30 });
    server = await startHealthServer({ port: 0, hostname: '127.0.0.1', registry: metrics.registry, notReadyReasons: () => reasons });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('picks a free port when asked for port 0', () => {
    expect(server.port).toBeGreaterThan(0);
  });

  it('is alive at once, and ready only when nothing keeps it from taking work', async () => {
    expect((await fetch(url('/healthz'))).status).toBe(200);
    const starting = await fetch(url('/readyz'));
    expect(starting.status).toBe(503);
    expect(await starting.json()).toEqual({ status: 'not ready', reasons: ['starting'] });
    reasons = [];
    const ready = await fetch(url('/readyz'));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('serves its metrics in the Prometheus format, read at scrape time', async () => {
    active = 2;
    const res = await fetch(url('/metrics'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('ces_worker_concurrency{service="worker"} 4');
    expect(text).toContain('ces_worker_active_executions{service="worker"} 2');
    expect(text).toMatch(/^ces_executions_ended_total\{(?=[^}]*choreo="\/Library\/A")(?=[^}]*status="SUCCESS")[^}]*\} 1$/m);
    expect(text).toContain('process_cpu_seconds_total');
  });

  it('answers 404 elsewhere and 405 to other methods', async () => {
    expect((await fetch(url('/nothing'))).status).toBe(404);
    const post = await fetch(url('/healthz'), { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
