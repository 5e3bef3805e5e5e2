import { addCpuMs, cpuMsPerOperation, cpuSnapshot, sharedCpuMs } from '../cpu-usage.ts';
import type { HttpLoadJob, LoadResult } from '../load-job.ts';
import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { alternatingRounds, ROUND_WARMUP_MS, ROUNDS } from './alternating-rounds.ts';
import { API_BASE, BASE64_BODY, BASE64_ENCODE, runJob, type ScenarioContext } from './scenario-context.ts';
import { must } from '@ces/testing';

const CONNECTIONS = 16;

/** GET /choreo-executions/<id> (authenticated, one Redis read) beside bare Hono's constant JSON. */
export async function readThroughput(context: ScenarioContext): Promise<Row[]> {
  const created = await runLoad(runJob(context, BASE64_ENCODE, { async: false, connections: 1, durationMs: 10_000, maxRequests: 1, body: BASE64_BODY }));
  if (created.ok !== 1) throw new Error(`could not create an execution to read: ${created.firstError}`);
  const id = await someExecutionId(context);

  const job = (origin: string, path: string, headers: Record<string, string>, durationMs: number, warmupMs = 0): HttpLoadJob => ({
    kind: 'http',
    client: context.httpClient,
    warmupMs,
    origin,
    caFile: context.stack.caFile,
    connections: CONNECTIONS,
    durationMs,
    maxRequests: 2_000_000,
    request: { method: 'GET', path, headers },
    okStatuses: [200],
  });
  const serviceJob = (durationMs: number, warmupMs?: number) =>
    job(context.stack.origin, `${API_BASE}/choreo-executions/${id}`, context.stack.headers, durationMs, warmupMs);
  const baselineJob = (durationMs: number, warmupMs?: number) =>
    job(context.stack.bareHonoOrigin, `${API_BASE}/choreo-executions/${id}`, { accept: 'application/json' }, durationMs, warmupMs);

  const measure = async (side: 'service' | 'baseline', roundMs: number) => {
    const pids = context.stack.pids();
    // CPU is read around the whole generator run, warm-up included: it is shared over the
    // warm-up's requests as well as the measured ones.
    const before = cpuSnapshot(pids);
    const result: LoadResult = await runLoad((side === 'service' ? serviceJob : baselineJob)(roundMs, ROUND_WARMUP_MS));
    const cpuMs = cpuMsPerOperation(before, cpuSnapshot(pids), 1);
    if (result.firstError) context.log(`  ${side}: ${result.firstError}`);
    return { result, cpuMs };
  };
  await runLoad(serviceJob(context.warmupMs));
  await runLoad(baselineJob(context.warmupMs));
  const { service: serviceRounds, baseline: baselineRounds } = await alternatingRounds(context, ['service', 'baseline'] as const, measure);
  const service = combineRounds(serviceRounds.map((r) => r.result));
  const baseline = combineRounds(baselineRounds.map((r) => r.result));
  const cpuMsPerRequest = cpuPerRequest(serviceRounds, service);
  const baselineCpuMsPerRequest = cpuPerRequest(baselineRounds, baseline);
  context.raw.readThroughput = {
    service,
    baseline,
    cpuMsPerRequest,
    baselineCpuMsPerRequest,
    rounds: serviceRounds.map((r, i) => ({ service: r.result.perSecond, baseline: must(baselineRounds[i]).result.perSecond })),
  };

  return [
    {
      scenario: '3 GET execution',
      figure: 'requests',
      unit: '/s',
      value: service.perSecond,
      baseline: { label: 'bare Hono', value: baseline.perSecond },
      target: { kind: 'at-least-ratio', factor: 0.4 },
      details: {
        rounds: ROUNDS,
        roundRatios: serviceRounds.map((r, i) => Math.round((r.result.perSecond / must(baselineRounds[i]).result.perSecond) * 100) / 100),
        latencyMsOfFirstRound: must(serviceRounds[0]).result.latencyMs,
        baselineLatencyMsOfFirstRound: must(baselineRounds[0]).result.latencyMs,
        connections: CONNECTIONS,
        cpuMsPerRequest,
        baselineCpuMsPerRequest,
      },
    },
  ];
}

/** The id of a stored execution: any one will do, completed Base64Encode runs are all alike. */
async function someExecutionId(context: ScenarioContext): Promise<string> {
  let cursor = '0';
  do {
    const [next, keys] = await context.stack.redis.scan(cursor, 'MATCH', context.stack.keys.execution('*'), 'COUNT', 1000);
    for (const key of keys) {
      if ((await context.stack.redis.hget(key, 'status')) === 'SUCCESS') return key.slice(key.lastIndexOf(':') + 1);
    }
    cursor = next;
  } while (cursor !== '0');
  throw new Error('no completed execution found to read');
}

/** The rounds of one side as one result: requests and time added up (latencies stay per round). */
function combineRounds(rounds: LoadResult[]): {
  ok: number;
  count: number;
  elapsedMs: number;
  perSecond: number;
  generatorCpuMs: number;
  /** Requests answered in all, the warm-ups' included: what the CPU time was spent on. */
  served: number;
} {
  const ok = rounds.reduce((sum, r) => sum + r.ok, 0);
  const count = rounds.reduce((sum, r) => sum + r.count, 0);
  const elapsedMs = rounds.reduce((sum, r) => sum + r.elapsedMs, 0);
  const generatorCpuMs = rounds.reduce((sum, r) => sum + (r.generatorCpuMs ?? 0), 0);
  const served = ok + rounds.reduce((sum, r) => sum + (r.warmupCount ?? 0), 0);
  return { ok, count, elapsedMs, perSecond: Math.round((ok / Math.max(1, elapsedMs)) * 1000 * 10) / 10, generatorCpuMs, served };
}

/** CPU ms per request of each process group over all rounds of one side, the generator included. */
function cpuPerRequest(rounds: { cpuMs: Record<string, number> }[], combined: { served: number; generatorCpuMs: number }): Record<string, number> {
  const total = rounds.reduce<Record<string, number>>((sum, { cpuMs }) => addCpuMs(sum, cpuMs), {});
  return sharedCpuMs({ ...total, generator: combined.generatorCpuMs }, combined.served);
}
