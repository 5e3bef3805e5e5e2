import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { until } from '../bench-stack.ts';
import { round, summarize } from '../latency-summary.ts';
import type { Row } from '../report.ts';
import { API_BASE, type ScenarioContext } from './scenario-context.ts';

const FAILING_LOOP = '/Bench/FailingLoop';
/** Redrives measured, one after the other, of the same failed run. */
const REDRIVES = 5;

/** A loop of one no-op per item (a write per iteration, as a loop of calls makes) that fails at item `failAt`. */
const failingLoop = (failAt: number) => ({
  description: `A no-op per item, failing at item ${failAt}.`,
  inputs: { Count: { description: 'Items.', type: 'STRING_VARIABLE', required: true } },
  outputs: { Items: { description: 'Items done.', type: 'STRING_VARIABLE', value: '{% $string($count(steps.each)) %}' } },
  steps: [
    {
      id: 'each',
      forEach: '{% [0..($number(inputs.Count) - 1)] %}',
      steps: [
        { id: 'mark', kind: 'noop', args: { item: '{{loop.item}}' } },
        {
          id: 'stop',
          choice: [{ when: { value: '{{loop.item}}', greaterThanOrEqual: failAt }, steps: [{ id: 'failed', fail: 'item {{loop.item}} failed' }] }],
        },
      ],
    },
  ],
});

/**
 * What starting a redrive costs when the run it redrives completed most of a long loop: a loop of
 * `iterations` (BENCH_REDRIVE_ITERATIONS, 10,000 by default) that fails at 90 % of them, redriven
 * REDRIVES times one after the other (each redrive fails again at once at the same item). The time
 * to accept is the POST's, which reads the run's progress, keeps the completed iterations and copies
 * them in the accept script; the bytes copied are the redrive's progress as Redis holds it.
 */
export function redriveStart(iterations: number) {
  return async (context: ScenarioContext): Promise<Row[]> => {
    const failAt = Math.floor(iterations * 0.9);
    await api(context, 'PUT', `/choreos${FAILING_LOOP}`, JSON.stringify(failingLoop(failAt)));
    const started = await api(
      context,
      'POST',
      `/choreos${FAILING_LOOP}?mode=async`,
      JSON.stringify({ inputs: [{ name: 'Count', value: String(iterations) }] }),
    );
    const failed = String(started.json.id);
    await endOf(context, failed);
    const acceptMs: number[] = [];
    let last = '';
    for (let round = 0; round < REDRIVES; round++) {
      const before = performance.now();
      const answer = await api(context, 'POST', `/choreo-executions/${failed}/redrive`);
      acceptMs.push(performance.now() - before);
      if (answer.status !== 202) throw new Error(`redrive answered ${answer.status}: ${JSON.stringify(answer.json)}`);
      last = String(answer.json.id);
      await endOf(context, last);
    }
    const progress = context.stack.keys.executionProgress(last);
    const entries = await context.stack.redis.hlen(progress);
    const memory = Number((await context.stack.redis.call('MEMORY', 'USAGE', progress, 'SAMPLES', '0')) ?? 0);
    const latency = summarize(acceptMs);
    context.raw.redriveStart = { iterations, failAt, acceptMs, entries, memory };
    const size = `${iterations.toLocaleString('en')} iterations failed at ${failAt.toLocaleString('en')}`;
    return [
      { scenario: '16 redrive start', figure: `POST redrive, ${size}, p50 of ${REDRIVES}`, unit: 'ms', value: latency.p50, details: { latencyMs: latency } },
      { scenario: '16 redrive copy', figure: `progress entries copied, ${size}`, unit: 'entries', value: entries },
      {
        scenario: '16 redrive bytes',
        figure: "the redrive's progress in Redis (MEMORY USAGE)",
        unit: 'B',
        value: memory,
        details: { bytesPerEntry: round(memory / Math.max(entries, 1), 1) },
      },
    ];
  };
}

async function endOf(context: ScenarioContext, id: string): Promise<void> {
  await until(
    async () => {
      const answer = await api(context, 'GET', `/choreo-executions/${id}`);
      const status = (answer.json.execution as { status?: string } | undefined)?.status;
      if (status !== undefined && status !== 'RUNNING' && status !== 'ERROR') throw new Error(`execution ${id} ended ${status}`);
      return status === 'ERROR';
    },
    180_000,
    `execution ${id} to fail`,
    50,
  );
}

/** One request to the interface with the stack's credentials. */
function api(context: ScenarioContext, method: string, path: string, body?: string): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      `${context.stack.origin}${API_BASE}${path}`,
      {
        method,
        ca: readFileSync(context.stack.caFile),
        servername: 'localhost',
        agent: false,
        headers: { ...context.stack.headers, ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, json: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
