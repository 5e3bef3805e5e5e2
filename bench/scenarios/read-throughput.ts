import { cpuMsPerOperation, cpuSnapshot } from '../cpu-usage.ts';
import type { HttpLoadJob, LoadResult } from '../load-job.ts';
import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { API_BASE, BASE64_BODY, BASE64_ENCODE, runJob, type ScenarioContext } from './scenario-context.ts';

const CONNECTIONS = 16;

/** GET /choreo-executions/<id> (authenticated, one Redis read) beside bare Hono's constant JSON. */
export async function readThroughput(context: ScenarioContext): Promise<Row[]> {
  const created = await runLoad(runJob(context, BASE64_ENCODE, { async: false, connections: 1, durationMs: 10_000, maxRequests: 1, body: BASE64_BODY }));
  if (created.ok !== 1) throw new Error(`could not create an execution to read: ${created.firstError}`);
  const id = await someExecutionId(context);

  const job = (origin: string, path: string, headers: Record<string, string>, durationMs: number): HttpLoadJob => ({
    kind: 'http',
    origin,
    caFile: context.stack.caFile,
    connections: CONNECTIONS,
    durationMs,
    maxRequests: 2_000_000,
    request: { method: 'GET', path, headers },
    okStatuses: [200],
  });
  const serviceJob = (durationMs: number) => job(context.stack.origin, `${API_BASE}/choreo-executions/${id}`, context.stack.headers, durationMs);
  const baselineJob = (durationMs: number) => job(context.stack.bareHonoOrigin, `${API_BASE}/choreo-executions/${id}`, { accept: 'application/json' }, durationMs);

  const measure = async (make: (durationMs: number) => HttpLoadJob, label: string) => {
    await runLoad(make(context.warmupMs));
    const pids = context.stack.pids();
    const before = cpuSnapshot(pids);
    const result: LoadResult = await runLoad(make(context.durationMs));
    const cpuMsPerRequest = cpuMsPerOperation(before, cpuSnapshot(pids), result.ok);
    cpuMsPerRequest.generator = Math.round(((result.generatorCpuMs ?? 0) / Math.max(1, result.ok)) * 1000) / 1000;
    if (result.firstError) context.log(`  ${label}: ${result.firstError}`);
    return { result, cpuMsPerRequest };
  };
  const { result: service, cpuMsPerRequest } = await measure(serviceJob, 'service');
  const { result: baseline, cpuMsPerRequest: baselineCpuMsPerRequest } = await measure(baselineJob, 'baseline');
  context.raw.readThroughput = { service, baseline, cpuMsPerRequest, baselineCpuMsPerRequest };

  return [
    {
      scenario: '3 GET execution',
      figure: 'requests',
      unit: '/s',
      value: service.perSecond,
      baseline: { label: 'bare Hono', value: baseline.perSecond },
      target: { kind: 'at-least-ratio', factor: 0.4 },
      details: { latencyMs: service.latencyMs, baselineLatencyMs: baseline.latencyMs, connections: CONNECTIONS, cpuMsPerRequest, baselineCpuMsPerRequest },
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
