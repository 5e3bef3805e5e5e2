import { readFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { createExecutionStore } from '@ces/store';
import { until } from '../bench-stack.ts';
import { cpuMsPerOperation, cpuSnapshot } from '../cpu-usage.ts';
import { round, summarize } from '../latency-summary.ts';
import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { API_BASE, COUNTDOWN, runJob, type ScenarioContext } from './scenario-context.ts';

const WAIT = '/Library/Utilities/Development/Wait';
/** Runs whose steps are watched at once, one stream each: as many as the two workers run at once. */
const LIVE_RUNS = 16;
/** Each live run's ten steps wait this long: a step ends every 20 ms in each. */
const LIVE_STEP_MS = '20';

/** One open run events stream, read as it comes. */
interface OpenStream {
  /** When the answer's headers came: events stored before may have been read back, not fed live. */
  openedAt: number;
  events: number;
  heartbeats: number;
  isClosed: boolean;
  closed: Promise<void>;
  close(): void;
}

/**
 * Opens GET …/choreo-executions/<id>/events; `onEvent` gets each event's type and data, and when
 * it was received (epoch ms).
 */
function openStream(
  context: ScenarioContext,
  agent: Agent,
  id: string,
  onEvent?: (type: string, data: string, receivedAt: number) => void,
): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      `${context.stack.origin}${API_BASE}/choreo-executions/${id}/events`,
      { agent, servername: 'localhost', headers: { ...context.stack.headers, accept: 'text/event-stream' } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`events of ${id}: ${response.statusCode}`));
          response.resume();
          return;
        }
        let buffer = '';
        let resolveClosed: () => void = () => {};
        const stream: OpenStream = {
          openedAt: Date.now(),
          events: 0,
          heartbeats: 0,
          isClosed: false,
          closed: new Promise<void>((resolveClose) => {
            resolveClosed = resolveClose;
          }),
          close: () => request.destroy(),
        };
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          const receivedAt = Date.now();
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf('\n\n');
            const type = /^event: (.*)$/m.exec(frame)?.[1];
            if (frame === ': heartbeat') stream.heartbeats += 1;
            if (type === undefined) continue;
            stream.events += 1;
            onEvent?.(type, /^data: (.*)$/m.exec(frame)?.[1] ?? '', receivedAt);
          }
        });
        response.on('close', () => {
          stream.isClosed = true;
          resolveClosed();
        });
        resolve(stream);
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** Opens `ids`' streams, `concurrency` handshakes at a time. */
async function openStreams(context: ScenarioContext, agent: Agent, ids: readonly string[], concurrency = 32): Promise<OpenStream[]> {
  const streams: OpenStream[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ids.length) {
        const id = ids[next++] as string;
        streams.push(await openStream(context, agent, id));
      }
    }),
  );
  return streams;
}

/**
 * `streams` run events streams open on the one API (BENCH_EVENT_STREAMS; 1,000 by default, the
 * target's): all but LIVE_RUNS of them on runs in a ten-minute durable wait, idle; the API's CPU
 * over a measured phase with them open against the same phase with none (heartbeats every 15 s,
 * the default, so a phase of 16 s or more holds one round of them). Then, with the idle streams
 * still open, LIVE_RUNS runs of Countdown (ten steps of 20 ms) at a time, one stream each, started
 * again as each ends: the time from each step's end (its event's `time`, the worker's clock)
 * to the event's arrival here (the same machine's clock), for the events that happened after
 * their stream was open.
 */
export function runEvents(streams: number): (context: ScenarioContext) => Promise<Row[]> {
  return async (context) => {
    const { stack } = context;
    const ca = readFileSync(stack.caFile, 'utf8');
    const agent = new Agent({ ca, keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
    const idleCount = Math.max(0, streams - LIVE_RUNS);
    const phaseMs = Math.max(16_000, context.durationMs * 2);
    const apiCpu = async (): Promise<number> => {
      const before = cpuSnapshot({ api: stack.pids().api as number });
      await new Promise((resolve) => setTimeout(resolve, phaseMs));
      const after = cpuSnapshot({ api: stack.pids().api as number });
      return round(((cpuMsPerOperation(before, after, 1).api ?? 0) * 1000) / phaseMs, 2);
    };

    const waitingBefore = await stack.redis.zrange(stack.keys.waiting(), '0', '-1');
    const body = JSON.stringify({ inputs: [{ name: 'Milliseconds', value: '600000' }] });
    const started = await runLoad(runJob(context, WAIT, { async: true, connections: 16, durationMs: 120_000, maxRequests: idleCount, body }));
    if (started.firstError) context.log(`  ${started.firstError}`);
    await until(
      async () => (await stack.redis.zcard(stack.keys.waiting())) >= waitingBefore.length + started.ok,
      120_000,
      'every waiting run to be suspended',
      250,
    );
    const earlier = new Set(waitingBefore);
    const waitingIds = (await stack.redis.zrange(stack.keys.waiting(), '0', '-1')).filter((id) => !earlier.has(id));

    const withoutStreams = await apiCpu();
    const openStarted = Date.now();
    const idle = await openStreams(context, agent, waitingIds);
    await until(async () => idle.every((stream) => stream.events >= 2), 60_000, 'every idle stream to have its run so far', 100);
    context.log(`  ${idle.length} idle streams open in ${((Date.now() - openStarted) / 1000).toFixed(1)} s`);
    // What opening them left (TLS sessions, garbage) is not what keeping them open costs.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const heartbeatsBefore = idle.reduce((sum, stream) => sum + stream.heartbeats, 0);
    const withStreams = await apiCpu();
    const heartbeats = idle.reduce((sum, stream) => sum + stream.heartbeats, 0) - heartbeatsBefore;

    const latencies: number[] = [];
    let runs = 0;
    const countdown = JSON.stringify({ inputs: [{ name: 'StepMilliseconds', value: LIVE_STEP_MS }] });
    const liveUntil = Date.now() + context.durationMs;
    const liveCpuBefore = cpuSnapshot(stack.pids());
    await Promise.all(
      Array.from({ length: LIVE_RUNS }, async () => {
        while (Date.now() < liveUntil) {
          const accepted = await postJson(`${stack.origin}${API_BASE}/choreos${COUNTDOWN}?mode=async`, ca, stack.headers, countdown);
          let stream: OpenStream | undefined;
          stream = await openStream(context, agent, accepted.id, (type, data, receivedAt) => {
            if (type !== 'step.ended' || stream === undefined) return;
            const time = Number((JSON.parse(data) as { time: string }).time);
            if (time >= stream.openedAt) latencies.push(receivedAt - time);
          });
          await stream.closed;
          runs += 1;
        }
      }),
    );
    const liveCpu = cpuMsPerOperation(liveCpuBefore, cpuSnapshot(stack.pids()), 1);

    // The waiting runs end, and their streams with them: terminated while no worker holds them.
    const executions = createExecutionStore({ redis: stack.redis, keys: stack.keys, retentionSeconds: 60 });
    for (const id of waitingIds) await executions.requestTermination(id);
    await until(async () => idle.every((stream) => stream.isClosed), 60_000, 'every idle stream to close', 100);
    agent.destroy();

    const latency = summarize(latencies);
    const heartbeatCpuMs = heartbeats > 0 ? round(((withStreams - withoutStreams) * phaseMs) / 1000 / heartbeats, 3) : undefined;
    context.raw.runEvents = { streams: idle.length + LIVE_RUNS, runs, latency, withoutStreams, withStreams, heartbeats, heartbeatCpuMs, liveCpu };
    context.log(
      `  ${runs} live runs, ${latency.count} step ends timed; API CPU ${withoutStreams} ms/s without streams, ${withStreams} with ${idle.length} idle (${heartbeats} heartbeats sent meanwhile, ${heartbeatCpuMs ?? '–'} ms each)`,
    );
    return [
      {
        scenario: '13 run events, live',
        figure: `step end → event received, p99, with ${idle.length + LIVE_RUNS} streams open`,
        unit: 'ms',
        value: latency.p99,
        target: { kind: 'at-most', limit: 50 },
        details: { latencyMs: latency, runs, cpuMs: liveCpu },
      },
      {
        scenario: '13 run events, idle',
        figure: `API CPU with ${idle.length} idle streams open`,
        unit: 'ms/s',
        value: withStreams,
        baseline: { label: 'no stream open', value: withoutStreams },
        details: { phaseMs, heartbeats, heartbeatCpuMs },
      },
    ];
  };
}

/** POSTs a run and returns its answer's execution id. */
function postJson(url: string, ca: string, headers: Record<string, string>, body: string): Promise<{ id: string }> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      url,
      {
        method: 'POST',
        ca,
        servername: 'localhost',
        agent: false,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        response.on('end', () => {
          if (response.statusCode !== 202) reject(new Error(`POST ${url}: ${response.statusCode} ${text}`));
          else resolve(JSON.parse(text) as { id: string });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
