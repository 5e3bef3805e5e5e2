import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { WEBHOOK_QUEUE } from '@ces/store';
import { Queue } from 'bullmq';
import { until } from '../bench-stack.ts';
import { startRawHttpsServer } from '../raw-https-server.ts';
import { round, summarize } from '../latency-summary.ts';
import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { compareServiceSettings, type Throughput } from './async-throughput.ts';
import { API_BASE, BASE64_BODY, BASE64_ENCODE, DRAIN_TIMEOUT_MS, drainService, runJob, runningCount, type ScenarioContext } from './scenario-context.ts';

/** The paced phase's rate: runs started (and so ending) 500 a second, short of the machine's limit. */
const PACED_PER_SECOND = 500;
/** Its connections: enough that an answer's latency never holds the rate back. */
const PACED_CONNECTIONS = 16;

const WEBHOOK = 'bench-ends';

/**
 * How many times BENCH_SECONDS each setting is measured for, in four rounds: a difference of 10 %
 * needs rounds of several seconds on two shared cores. Rounds of 2 s (8 s a setting) measured the
 * webhook's CPU per run at 0.07–0.13 ms in ten runs, rounds of 12 s at 0.05 in three, and single
 * 2-s rounds' ratios swung from 0.70 to 1.15.
 */
const SETTING_SECONDS_FACTOR = 6;

/** An authenticated request of the bench account's application to the API; its status. */
function call(context: ScenarioContext, method: 'PUT' | 'DELETE', path: string, body?: string): Promise<number> {
  const ca = readFileSync(context.stack.caFile, 'utf8');
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      `${context.stack.origin}${API_BASE}${path}`,
      {
        method,
        ca,
        servername: 'localhost',
        agent: false,
        headers: { ...context.stack.headers, ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A run's end as its delivery's body gives it (`data.execution.endtime`, epoch ms as a string). */
const ENDTIME = /"endtime":"(\d+)"/;

/**
 * An HTTPS endpoint on 127.0.0.1 under the stack's certificate, which the workers trust
 * (NODE_EXTRA_CA_CERTS): answers 204 at once, and keeps, per delivery, the time from its run's end
 * (the body's `endtime`) to its arrival here. It stands for an endpoint on another machine, so it
 * is the minimal server (raw-https-server.ts): what it spends is taken from the service measured.
 */
async function startReceiver(context: ScenarioContext) {
  const latenciesMs: number[] = [];
  const server = await startRawHttpsServer({
    cert: readFileSync(context.stack.caFile),
    key: readFileSync(context.stack.tlsKeyFile),
    handler: (request) => {
      const arrived = Date.now();
      const endtime = ENDTIME.exec(request.body.toString('latin1'))?.[1];
      if (endtime !== undefined) latenciesMs.push(arrived - Number(endtime));
      return 204;
    },
  });
  return { url: `${server.origin}/hooks`, latenciesMs, close: () => server.close() };
}

/**
 * Scenario 14: async runs with one webhook on every run's end beside none, in mirrored rounds (A B, B A, …)
 * (the service's throughput with it should be within 10 % of without), the latency from a run's
 * end to the endpoint's receipt at that rate, and the same latency at 500 runs a second
 * (PACED_PER_SECOND).
 */
export async function webhookDeliveries(context: ScenarioContext): Promise<Row[]> {
  const { redis, keys } = context.stack;
  const receiver = await startReceiver(context);
  const deliveries = new Queue(WEBHOOK_QUEUE, { connection: redis, prefix: keys.prefix });
  let paced = { runsPerSecond: 0, latencyMs: summarize([]) };
  const drainDeliveries = () =>
    until(
      async () => (await redis.zcard(keys.webhookOutbox())) === 0 && (await deliveries.getJobCountByTypes('wait', 'active', 'delayed', 'prioritized')) === 0,
      DRAIN_TIMEOUT_MS,
      'the deliveries to drain',
      20,
    );
  let subscribed = false;
  const use = async (setting: 'without' | 'withOne') => {
    if ((setting === 'withOne') === subscribed) return;
    if (setting === 'withOne') {
      const put = await call(context, 'PUT', `/webhooks/${WEBHOOK}`, JSON.stringify({ url: receiver.url, events: ['execution.ended'] }));
      if (put !== 201) throw new Error(`PUT /webhooks/${WEBHOOK} answered ${put}`);
    } else {
      // Every end a phase with the webhook made is delivered before the next phase starts.
      await drainDeliveries();
      await call(context, 'DELETE', `/webhooks/${WEBHOOK}`);
    }
    subscribed = setting === 'withOne';
  };
  let measured: Record<'without' | 'withOne', Throughput>;
  try {
    measured = await compareServiceSettings({ ...context, durationMs: context.durationMs * SETTING_SECONDS_FACTOR }, ['without', 'withOne'] as const, use);
    // The latency short of the machine's limit: runs started at an even 500 a second.
    await use('withOne');
    const fromHere = receiver.latenciesMs.length;
    const before = await runningCount(context);
    const load = await runLoad(
      runJob(context, BASE64_ENCODE, {
        async: true,
        connections: PACED_CONNECTIONS,
        perSecond: PACED_PER_SECOND,
        durationMs: context.durationMs,
        maxRequests: 500_000,
        body: BASE64_BODY,
      }),
    );
    await drainService(context, before);
    await drainDeliveries();
    paced = { runsPerSecond: load.perSecond, latencyMs: summarize(receiver.latenciesMs.slice(fromHere)) };
    await use('without');
  } finally {
    await deliveries.close();
    await receiver.close();
  }
  const { without, withOne } = measured;
  const latency = summarize(receiver.latenciesMs);
  const scenario = `14 webhooks (${context.stack.workerCount()} workers)`;
  context.raw.webhookDeliveries = { without, withOne, latencyMs: latency, deliveries: receiver.latenciesMs.length, paced };
  return [
    {
      scenario,
      figure: 'completed with one webhook',
      unit: '/s',
      value: round(withOne.completedPerSecond, 1),
      baseline: { label: 'no webhook', value: round(without.completedPerSecond, 1) },
      target: { kind: 'at-least-ratio', factor: 0.9 },
      details: { rounds: withOne.phases.map((one, index) => [without.phases[index]?.completedPerSecond, one.completedPerSecond]) },
    },
    { scenario, figure: 'end → receipt p50', unit: 'ms', value: latency.p50, details: { deliveries: receiver.latenciesMs.length } },
    { scenario, figure: 'end → receipt p99', unit: 'ms', value: latency.p99, details: { max: latency.max } },
    { scenario, figure: `end → receipt p50 at ${Math.round(paced.runsPerSecond)} runs/s`, unit: 'ms', value: paced.latencyMs.p50, details: { paced } },
    { scenario, figure: `end → receipt p99 at ${Math.round(paced.runsPerSecond)} runs/s`, unit: 'ms', value: paced.latencyMs.p99 },
  ];
}
