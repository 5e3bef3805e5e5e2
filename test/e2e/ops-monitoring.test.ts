import { HEARTBEAT_TTL_MS } from '@ces/store';
import { waitFor, must } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ServiceProcess } from '../support/service-process.ts';
import { startStack, type Stack } from '../support/stack.ts';

const COUNTDOWN = '/Library/Utilities/Development/Countdown';
const BASE64_ENCODE = '/Library/Utilities/Encoding/Base64Encode';
const FAIL = '/Library/Utilities/Development/Fail';

/** Samples of one metric in the Prometheus text format, with their labels. */
function samples(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  const found: { labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [must(m[1]), must(m[2])]));
    found.push({ labels, value: Number(match[3]) });
  }
  return found;
}

/** The sum of a metric's samples whose labels include `labels`; undefined when there is none. */
function metric(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const matching = samples(text, name).filter((s) => Object.entries(labels).every(([key, value]) => s.labels[key] === value));
  return matching.length === 0 ? undefined : matching.reduce((sum, s) => sum + s.value, 0);
}

function basic(name: string, secret: string) {
  return `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}`;
}

/** The port a worker started with WORKER_HEALTH_PORT=0 says it listens on. */
function healthPortOf(worker: ServiceProcess): number | undefined {
  for (const line of worker.logs().split('\n')) {
    if (!line.includes('worker health server listening')) continue;
    return (JSON.parse(line) as { port: number }).port;
  }
  return undefined;
}

describe('operations: metrics, live workers and operator access over real processes', () => {
  let stack: Stack;
  let healthPorts: number[] = [];

  const opsGet = (path: string, headers: Record<string, string> = {}) =>
    stack.http.request('GET', path, { headers: { authorization: basic(stack.credentials.operator.name, stack.credentials.operator.secret), ...headers } });
  const apiMetrics = async () => {
    const res = await opsGet('/metrics');
    expect(res.status, res.text).toBe(200);
    return res.text;
  };
  const workerMetrics = async () => Promise.all(healthPorts.map(async (port) => (await fetch(`http://127.0.0.1:${port}/metrics`)).text()));
  const sumOver = (texts: string[], name: string, labels: Record<string, string> = {}) =>
    texts.reduce((sum, text) => sum + (metric(text, name, labels) ?? 0), 0);

  beforeAll(async () => {
    stack = await startStack({
      redisUrl: inject('redisUrl'),
      workers: 2,
      workerEnv: { WORKER_CONCURRENCY: '1', WORKER_HEALTH_PORT: '0' },
    });
    healthPorts = await Promise.all(stack.workers.map((worker) => waitFor(() => healthPortOf(worker), { what: `${worker.name}'s health port` })));
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses every ops route to account credentials (403), and to no or wrong credentials (401)', async () => {
    const alice = { authorization: basic('alice', stack.credentials.alice.secret), 'x-service-domain': '/acme/master' };
    for (const path of ['/ops/workers', '/ops/queues', '/ops/queues/api/queues', '/ops/unknown', '/metrics']) {
      const anonymous = await stack.http.request('GET', path);
      expect(anonymous.status, path).toBe(401);
      expect(anonymous.headers['www-authenticate'], path).toMatch(/^Basic realm=/);
      expect(anonymous.json().error.message, path).toContain("an operator's name and password");
      const account = await stack.http.request('GET', path, { headers: alice });
      expect(account.status, path).toBe(403);
      expect(account.json().error.code, path).toBe('FORBIDDEN');
    }
    // A wrong password or an unknown name is a failed authentication, answered alike, with the challenge.
    for (const authorization of [basic('oncall', 'not-the-password'), basic('nobody', 'not-the-password')]) {
      const failed = await stack.http.request('GET', '/ops/workers', { headers: { authorization } });
      expect(failed.status).toBe(401);
      expect(failed.headers['www-authenticate']).toMatch(/^Basic realm=/);
      expect(failed.json().error.code).toBe('UNAUTHORIZED');
    }
    // Account credentials that do not verify for the account named are a failed authentication too.
    const wrongAccountSecret = await stack.http.request('GET', '/ops/workers', { headers: { ...alice, authorization: basic('alice', 'not-her-password') } });
    expect(wrongAccountSecret.status).toBe(401);
    expect((await opsGet('/ops/unknown')).status).toBe(404);
  });

  it('serves the queue dashboard to operators', async () => {
    // What a browser sends for a page.
    const page = await opsGet('/ops/queues', { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' });
    expect(page.status, page.text).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const base = /<base href="([^"]+)"/.exec(page.text)?.[1];
    const script = /src="(static\/js\/[^"]+\.js)"/.exec(page.text)?.[1];
    expect([base, script], page.text).toEqual(['/ops/queues/', expect.any(String)]);
    // A bare `text/html`, as some clients send, is served too: the dashboard is not the JSON/XML API.
    const bare = await opsGet('/ops/queues', { accept: 'text/html' });
    expect(bare.status, bare.text).toBe(200);
    expect(bare.text).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
    expect(bare.headers['content-security-policy']).toContain("default-src 'self'");
    expect((await opsGet('/ops/queues/api/queues', { accept: 'text/html' })).status).toBe(200);
    const asset = await opsGet(`${base}${script}`, { accept: '*/*' });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);

    const slash = await opsGet('/ops/queues/');
    expect(slash.status).toBe(308);
    expect(slash.headers.location).toBe('/ops/queues');

    const api = await opsGet('/ops/queues/api/queues');
    expect(api.status, api.text).toBe(200);
    const queues = api.json().queues as { name: string; readOnlyMode: boolean }[];
    expect(queues.map((q) => q.name)).toEqual(['executions']);
    expect(must(queues[0]).readOnlyMode).toBe(true);
  });

  it('lists each live worker process with its host, from its heartbeat', async () => {
    const res = await opsGet('/ops/workers');
    expect(res.status, res.text).toBe(200);
    const workers = res.json().workers as Record<string, unknown>[];
    expect(workers.map((w) => w.host).sort()).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(workers.map((w) => w.pid).sort()).toEqual(stack.workers.map((w) => w.pid).sort());
    for (const worker of workers) {
      expect(worker).toMatchObject({ concurrency: 1, failed: 0, version: expect.any(String), id: expect.any(String) });
      expect(worker.lastSeen as number).toBeGreaterThanOrEqual(worker.started as number);
    }
    const xml = await opsGet('/ops/workers', { accept: 'application/xml' });
    expect(xml.text).toMatch(/<workers><worker><id>/);
    expect(xml.text).toContain('<host>10.0.0.1</host>');
  });

  it('moves the metrics as runs start and end; the queue gauges follow the real jobs', async () => {
    const before = await apiMetrics();
    const startedBefore = metric(before, 'ces_executions_started_total', { choreo: COUNTDOWN }) ?? 0;
    const terminatedByApiBefore = metric(before, 'ces_executions_ended_total', { choreo: COUNTDOWN, status: 'TERMINATED_MANUALLY' }) ?? 0;

    // Two workers of concurrency 1 and four long runs: two execute, two wait in the queue.
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await stack.call('POST', `/choreos${COUNTDOWN}?mode=async`, stack.credentials.acmeApp, {
        body: JSON.stringify({ inputs: [{ name: 'StepMilliseconds', value: '1500' }] }),
      });
      expect(res.status, res.text).toBe(202);
      ids.push(res.json().id);
    }

    const during = await waitFor(
      async () => {
        const text = await apiMetrics();
        return metric(text, 'ces_queue_jobs', { state: 'active' }) === 2 && metric(text, 'ces_queue_jobs', { state: 'waiting' }) === 2 ? text : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 100, what: 'two active and two waiting jobs' },
    );
    expect(metric(during, 'ces_queue_jobs', { state: 'delayed' })).toBe(0);
    expect(metric(during, 'ces_queue_oldest_waiting_age_seconds')).toBeGreaterThan(0);
    expect(metric(during, 'ces_executions_started_total', { choreo: COUNTDOWN })).toBe(startedBefore + 4);
    expect(metric(during, 'ces_executions_running', { account: 'acme' })).toBe(4);
    expect(metric(during, 'ces_account_stored_bytes', { account: 'acme' })).toBeGreaterThan(4 * 100);
    expect(metric(during, 'ces_workers_live')).toBe(2);
    const busy = await workerMetrics();
    expect(busy.map((text) => metric(text, 'ces_worker_concurrency'))).toEqual([1, 1]);
    expect(sumOver(busy, 'ces_worker_active_executions')).toBe(2);

    // Queued runs first, so that no worker takes one of them in between: they end in the API at once.
    const statuses = await Promise.all(
      ids.map(async (id) => (await stack.call('GET', `/choreo-executions/${id}`, stack.credentials.acmeApp)).json().execution),
    );
    const queued = statuses.filter((e) => e.host === '').map((e) => e.id as string);
    const executing = statuses.filter((e) => e.host !== '').map((e) => e.id as string);
    expect([queued.length, executing.length]).toEqual([2, 2]);
    for (const id of [...queued, ...executing]) {
      expect((await stack.call('DELETE', `/choreo-executions/${id}`, stack.credentials.acmeApp)).status).toBe(204);
    }

    const after = await waitFor(
      async () => {
        const text = await apiMetrics();
        const idle = ['waiting', 'active'].every((state) => metric(text, 'ces_queue_jobs', { state }) === 0);
        return idle && metric(text, 'ces_executions_running', { account: 'acme' }) === 0 ? text : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 100, what: 'the queue to empty' },
    );
    expect(metric(after, 'ces_queue_oldest_waiting_age_seconds')).toBe(0);
    expect(metric(after, 'ces_executions_ended_total', { choreo: COUNTDOWN, status: 'TERMINATED_MANUALLY' })).toBe(terminatedByApiBefore + 2);

    const ended = await waitFor(
      async () => {
        const texts = await workerMetrics();
        return sumOver(texts, 'ces_executions_ended_total', { choreo: COUNTDOWN, status: 'TERMINATED_MANUALLY' }) === 2 ? texts : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100, what: 'the workers to count their two terminated runs' },
    );
    expect(sumOver(ended, 'ces_execution_duration_seconds_count', { choreo: COUNTDOWN, status: 'TERMINATED_MANUALLY' })).toBe(2);
    expect(sumOver(ended, 'ces_step_duration_seconds_count', { kind: 'control.wait' })).toBeGreaterThanOrEqual(2);
    expect(sumOver(ended, 'ces_worker_active_executions')).toBe(0);
    expect(sumOver(ended, 'ces_redis_errors_total', { connection: 'worker' })).toBe(0);

    // Requests by route pattern and status, with their latency.
    // The parameter's name alone: `:id{.+}` would read as a regular expression in a PromQL matcher.
    const runs = { method: 'POST', route: '/service-api/1.0/choreos/:id', status: '202' };
    expect(after).not.toContain(':id{');
    expect(metric(after, 'ces_http_requests_total', runs)).toBeGreaterThanOrEqual(4);
    expect(metric(after, 'ces_http_request_duration_seconds_count', runs)).toBeGreaterThanOrEqual(4);
    expect(metric(after, 'ces_http_requests_total', { method: 'DELETE', route: '/service-api/1.0/choreo-executions/:id', status: '204' })).toBe(4);
    expect(metric(after, 'ces_redis_reconnects_total', { connection: 'api' })).toBe(0);
  });

  it('counts on the API the runs every worker ended, by status, from Redis alone', async () => {
    const before = await apiMetrics();
    const fleet = (text: string, status: string) => metric(text, 'ces_service_executions_ended_total', { status }) ?? 0;
    const startedBefore = metric(before, 'ces_service_executions_started_total') ?? 0;
    const run = async (choreo: string, inputs: { name: string; value: string }[]) => {
      const res = await stack.call('POST', `/choreos${choreo}?mode=async`, stack.credentials.acmeApp, { body: JSON.stringify({ inputs }) });
      expect(res.status, res.text).toBe(202);
      return res.json().id as string;
    };
    const ids = [
      await run(BASE64_ENCODE, [{ name: 'Text', value: 'one' }]),
      // Taken by a worker under a lease (it waits), where the two others run without a take.
      await run(COUNTDOWN, [{ name: 'StepMilliseconds', value: '10' }]),
      await run(FAIL, [{ name: 'Message', value: 'counted' }]),
    ];
    const ended = await Promise.all(ids.map((id) => stack.waitForEnd(id, stack.credentials.acmeApp)));
    expect(ended.map((e) => e.status)).toEqual(['SUCCESS', 'SUCCESS', 'ERROR']);
    // Workers ended them: the API's own per-process counters saw none of these ends.
    expect(new Set(ended.map((e) => e.host))).not.toContain('');

    const after = await apiMetrics();
    expect(fleet(after, 'SUCCESS') - fleet(before, 'SUCCESS')).toBe(2);
    expect(fleet(after, 'ERROR') - fleet(before, 'ERROR')).toBe(1);
    expect(fleet(after, 'TERMINATED_LIMIT') - fleet(before, 'TERMINATED_LIMIT')).toBe(0);
    expect(metric(after, 'ces_service_executions_started_total')).toBe(startedBefore + 3);
    expect(metric(after, 'ces_executions_ended_total', { choreo: FAIL })).toBeUndefined();
    // Every API reads the same counters: a second process over the same Redis answers alike.
    const second = stack.apis[await stack.addApi()];
    if (!second) throw new Error('the second API was not added');
    const res = await second.http.request('GET', '/metrics', {
      headers: { authorization: basic(stack.credentials.operator.name, stack.credentials.operator.secret) },
    });
    expect(res.status, res.text).toBe(200);
    expect(fleet(res.text, 'ERROR')).toBe(fleet(after, 'ERROR'));
    expect(metric(res.text, 'ces_service_executions_started_total')).toBe(startedBefore + 3);
    expect(metric(res.text, 'ces_workers_live')).toBe(2);
  });

  it('answers health on every worker’s own port', async () => {
    for (const port of healthPorts) {
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });
    }
  });

  const accessLine = (requestId: string) =>
    waitFor(
      () =>
        stack.api
          .logs()
          .split('\n')
          .filter((l) => l.includes(requestId))
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .find((l) => l.msg === 'request'),
      { what: `the access line of ${requestId}` },
    );

  it('logs one JSON access line per request, with its request id, and never a secret', async () => {
    const requestId = `ops-test-${Date.now()}`;
    const res = await stack.call('GET', '/choreos', stack.credentials.alice, { headers: { 'x-request-id': requestId } });
    expect(res.status).toBe(200);
    const line = await accessLine(requestId);
    expect(line).toMatchObject({
      level: 'info',
      name: 'api',
      requestId,
      method: 'GET',
      path: '/service-api/1.0/choreos',
      route: '/service-api/1.0/choreos',
      status: 200,
      account: 'acme',
      principal: 'alice',
      hostname: expect.any(String),
    });
    const ended = await waitFor(
      () => {
        const lines = stack.workers
          .flatMap((w) => w.logs().split('\n'))
          .filter((l) => l.includes('"execution ended"'))
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        return lines.length > 0 && lines;
      },
      { what: 'an "execution ended" line' },
    );
    expect(ended[0]).toMatchObject({
      executionId: expect.any(String),
      account: 'acme',
      choreo: COUNTDOWN,
      workerId: expect.any(String),
      host: expect.stringMatching(/^10\.0\.0\./),
    });

    const logs = stack.logs();
    for (const credential of Object.values(stack.credentials)) expect(logs).not.toContain(credential.secret);
    expect(logs).not.toMatch(/authorization/i);
  });

  it('names the execution a run started in its access line', async () => {
    const requestId = `ops-run-${Date.now()}`;
    const res = await stack.call('POST', `/choreos${BASE64_ENCODE}?mode=async`, stack.credentials.acmeApp, {
      body: JSON.stringify({ inputs: [{ name: 'Text', value: 'hello' }] }),
      headers: { 'x-request-id': requestId },
    });
    expect(res.status, res.text).toBe(202);
    expect(await accessLine(requestId)).toMatchObject({
      method: 'POST',
      status: 202,
      executionId: res.json().id,
      choreo: BASE64_ENCODE,
      account: 'acme',
    });
  });

  it(
    'drops a worker killed with SIGKILL from /ops/workers within the heartbeat TTL',
    async () => {
      const [survivor, victim] = stack.workers as [ServiceProcess, ServiceProcess];
      const listedPids = async () => ((await opsGet('/ops/workers')).json().workers as { pid: number }[]).map((w) => w.pid);
      expect(await listedPids()).toContain(victim.pid);
      victim.kill('SIGKILL');
      await victim.exited;
      // No clean exit removes the record: only the heartbeat's TTL can make it vanish.
      await waitFor(async () => !(await listedPids()).includes(victim.pid), {
        timeoutMs: HEARTBEAT_TTL_MS,
        intervalMs: 250,
        what: 'the killed worker to vanish',
      });
      expect(await listedPids()).toEqual([survivor.pid]);
      expect((await stack.http.request('GET', '/readyz')).json().workers).toBe(1);
    },
    HEARTBEAT_TTL_MS + 15_000,
  );
});
