import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Agent, request } from 'node:https';
import { createExecutionStore } from '@ces/store';
import { newExecutionFixture } from '@ces/testing';
import { until } from '../bench-stack.ts';
import { processCpuMs } from '../cpu-usage.ts';
import { round, summarize } from '../latency-summary.ts';
import type { Row } from '../report.ts';
import { API_BASE, COUNTDOWN, type ScenarioContext } from './scenario-context.ts';

const NO_OP_LOOP = '/Library/Utilities/Development/NoOpLoop';
const SCENARIO = '15 console';

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A browser's requests to the console: one keep-alive connection pool, the session cookie once signed in. */
function consoleClient(context: ScenarioContext) {
  const ca = readFileSync(context.stack.caFile);
  const agent = new Agent({ keepAlive: true, ca, maxSockets: 1_000 });
  const { hostname, port } = new URL(context.stack.origin);
  let cookie = '';
  function send(method: string, path: string, body?: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { accept: 'text/html', ...(cookie ? { cookie } : {}) };
      if (body !== undefined) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        headers.origin = context.stack.origin;
      }
      const req = request({ hostname, port, path, method, agent, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }
  return {
    agent,
    hostname,
    port,
    get cookie() {
      return cookie;
    },
    send,
    /** Signs in as the bench account's application, with the key its Basic headers carry. */
    async signIn() {
      const [name, key] = Buffer.from((context.stack.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
        .toString('utf8')
        .split(/:(.*)/s);
      const account = /^\/?([^/]+)\/master/.exec(context.stack.headers['x-service-domain'] ?? '')?.[1] ?? '';
      const answer = await send('POST', '/console/sign-in', new URLSearchParams({ account, name: name ?? '', password: key ?? '' }).toString());
      const set = answer.headers['set-cookie']?.[0];
      if (answer.status !== 303 || !set) throw new Error(`console sign-in answered ${answer.status}`);
      cookie = set.split(';')[0] ?? '';
    },
  };
}

/** Round trips of `count` sequential GETs of `path` on 127.0.0.1 (the server's time, plus the loopback's). */
async function timeGets(client: ReturnType<typeof consoleClient>, path: string, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const answer = await client.send('GET', path);
    samples.push(performance.now() - started);
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
  }
  return samples;
}

async function startRun(context: ScenarioContext, choreo: string, inputs: Record<string, string>): Promise<string> {
  const body = JSON.stringify({ inputs: Object.entries(inputs).map(([name, value]) => ({ name, value })) });
  const response = await fetchApi(context, 'POST', `${API_BASE}/choreos${choreo}?mode=async`, body);
  return (JSON.parse(response.body) as { id: string }).id;
}

function fetchApi(context: ScenarioContext, method: string, path: string, body?: string): Promise<Answer> {
  const ca = readFileSync(context.stack.caFile);
  const { hostname, port } = new URL(context.stack.origin);
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, path, method, ca, headers: { ...context.stack.headers, accept: 'application/json', 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function statusOf(context: ScenarioContext, id: string): Promise<string> {
  return (await context.stack.redis.hget(context.stack.keys.execution(id), 'status')) ?? '';
}

/**
 * The bench account's retained runs, recorded straight in the store as ended runs (the history's
 * indexes are written by the same scripts as for real runs), many at a time.
 */
async function seedRetainedRuns(context: ScenarioContext, count: number): Promise<void> {
  const executions = createExecutionStore({ redis: context.stack.redis, keys: context.stack.keys, retentionSeconds: 24 * 3600 });
  const start = Date.now() - count * 10;
  const choreos = ['/Library/Seeded/A', '/Library/Seeded/B', '/Library/Seeded/C', '/Library/Seeded/D'];
  const batch = 500;
  for (let first = 0; first < count; first += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, count - first) }, async (_, offset) => {
        const index = first + offset;
        const execution = newExecutionFixture({ account: 'bench', choreo: choreos[index % choreos.length] as string, starttime: start + index * 10 });
        const accepted = await executions.accept(execution, { maxRunningPerAccount: 0 });
        if (accepted.outcome !== 'accepted') throw new Error(`seeding: ${accepted.outcome}`);
        // One run in ten failed, of every Choreo alike.
        const failed = index % 10 === 1;
        await executions.end(execution.id, { status: failed ? 'ERROR' : 'SUCCESS', ...(failed ? { error: 'seeded' } : {}) });
      }),
    );
  }
}

/** One open run page's stream: resolves with each event's receipt time and data. */
function openLive(client: ReturnType<typeof consoleClient>, id: string, onEvent: (type: string, data: string, at: number) => void): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: client.hostname,
        port: client.port,
        path: `/console/runs/${id}/live`,
        agent: client.agent,
        headers: { accept: 'text/event-stream', cookie: client.cookie },
      },
      (res) => {
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const at = Date.now();
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const type = /^event: (.*)$/m.exec(frame)?.[1];
            const data = /^data: (.*)$/m.exec(frame)?.[1];
            if (type && data) onEvent(type, data, at);
            end = buffer.indexOf('\n\n');
          }
        });
        resolve(res);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Scenario 15: the console's pages. The runs list's first page over an account's retained runs
 * (BENCH_CONSOLE_RUNS, 100,000 by default), the page of a run of 10,000 loop iterations, a live
 * run page's delay from a step's end to the page showing it (the event's arrival plus the page's
 * refetch, which is what the page's script does), and the API's CPU with many run pages open on
 * a quiet run (BENCH_CONSOLE_PAGES, 500 by default).
 */
export function consolePages(options: { retainedRuns: number; openPages: number }) {
  return async (context: ScenarioContext): Promise<Row[]> => {
    const rows: Row[] = [];
    const client = consoleClient(context);
    await client.signIn();

    context.log(`  seeding ${options.retainedRuns} retained runs`);
    const seeded = Date.now();
    await seedRetainedRuns(context, options.retainedRuns);
    context.log(`  seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
    await timeGets(client, '/console/runs', 20);
    const listed = summarize(await timeGets(client, '/console/runs', 200));
    rows.push({
      scenario: SCENARIO,
      figure: `runs list, first page of ${options.retainedRuns} retained, p50`,
      unit: 'ms',
      value: listed.p50,
      target: { kind: 'at-most', limit: 20 },
      details: { ...listed },
    });
    const filtered = summarize(await timeGets(client, '/console/runs?status=ERROR&choreo=%2FLibrary%2FSeeded%2FB', 100));
    rows.push({ scenario: SCENARIO, figure: 'runs list filtered by status and Choreo, p50', unit: 'ms', value: filtered.p50, details: { ...filtered } });

    const loopRun = await startRun(context, NO_OP_LOOP, { Iterations: '10000' });
    await until(async () => (await statusOf(context, loopRun)) === 'SUCCESS', 300_000, 'the 10,000-iteration run to end', 200);
    await timeGets(client, `/console/runs/${loopRun}`, 5);
    const runPage = summarize(await timeGets(client, `/console/runs/${loopRun}`, 50));
    rows.push({
      scenario: SCENARIO,
      figure: 'run page of a 10,000-iteration run, p50',
      unit: 'ms',
      value: runPage.p50,
      target: { kind: 'at-most', limit: 100 },
      details: { ...runPage },
    });

    // Step end → shown: each step.ended's arrival after its time, plus the page's refetch then.
    const delays: number[] = [];
    for (let round_ = 0; round_ < 10; round_ += 1) {
      const id = await startRun(context, COUNTDOWN, { StepMilliseconds: '100' });
      const pending: Promise<void>[] = [];
      let ended = false;
      const stream = await openLive(client, id, (type, data, at) => {
        if (type === 'execution.ended') ended = true;
        if (type !== 'step.ended') return;
        const time = Number((JSON.parse(data) as { time: string }).time);
        pending.push(
          (async () => {
            const started = performance.now();
            await client.send('GET', `/console/runs/${id}`);
            delays.push(at - time + (performance.now() - started));
          })(),
        );
      });
      await until(async () => ended, 30_000, 'the live run to end', 20);
      stream.destroy();
      await Promise.all(pending);
    }
    const live = summarize(delays);
    rows.push({
      scenario: SCENARIO,
      figure: 'live run page: step end → shown p99',
      unit: 'ms',
      value: live.p99,
      target: { kind: 'at-most', limit: 250 },
      details: { ...live },
    });

    // Open pages on a run in a long wait (suspended, a durable wait): what they cost the API while nothing happens.
    const quiet = await startRun(context, COUNTDOWN, { StepMilliseconds: '120000' });
    const streams = await Promise.all(Array.from({ length: options.openPages }, () => openLive(client, quiet, () => {})));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const apiPid = context.stack.pids().api as number;
    const before = processCpuMs(apiPid) ?? 0;
    // Two heartbeats' worth at the least (one every 15 s a stream), so that they are in the figure.
    const idleMs = Math.max(30_000, context.durationMs);
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const used = (processCpuMs(apiPid) ?? 0) - before;
    for (const stream of streams) stream.destroy();
    await fetchApi(context, 'DELETE', `${API_BASE}/choreo-executions/${quiet}`);
    rows.push({
      scenario: SCENARIO,
      figure: `${options.openPages} open run pages, idle: API CPU`,
      unit: '% of a core',
      value: round((used / idleMs) * 100, 2),
      target: { kind: 'at-most', limit: 20 },
      details: { openPages: options.openPages, idleMs, cpuMs: used },
    });
    client.agent.destroy();
    return rows;
  };
}
