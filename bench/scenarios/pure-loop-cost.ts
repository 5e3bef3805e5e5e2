import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { compileExpression } from '@ces/language';
import type { TemplateContext } from '@ces/language';
import { must } from '@ces/testing';
import { cpuMsPerOperation, cpuSnapshot } from '../cpu-usage.ts';
import { round, summarize } from '../latency-summary.ts';
import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { API_BASE, runJob, type ScenarioContext } from './scenario-context.ts';

const TEMPLATE_LOOP = '/Bench/TemplateLoop';
const CODE_OVER_RECORDS = '/Bench/CodeOverRecords';
/** The expression each iteration evaluates, one record at a time. */
const LINE = '{% loop.item.name & ": " & $string(loop.item.amount * 2) %}';
const records = (count: number) => Array.from({ length: count }, (_, index) => ({ name: `r${index}`, amount: (index * 37) % 101 }));
const recordsBody = (count: number) => JSON.stringify({ inputs: [{ name: 'Records', value: JSON.stringify(records(count)) }] });
const recordsInput = { description: 'The records, JSON.', type: 'STRING_VARIABLE', required: true };

/** A forEach of one text.template per record: pure steps, written with the run's end. */
const templateLoop = {
  description: 'One text.template per record.',
  inputs: { Records: recordsInput },
  outputs: { Lines: { description: 'One line per record.', type: 'STRING_VARIABLE', value: '{% $join(steps.each.text, "\\n") %}' } },
  steps: [{ id: 'each', forEach: '{{inputs.Records}}', steps: [{ id: 'line', kind: 'text.template', args: { text: LINE } }] }],
};

/** The same work in one code.javascript step. */
const codeOverRecords = {
  description: 'The same lines, from one code step.',
  inputs: { Records: recordsInput },
  outputs: { Lines: { description: 'One line per record.', type: 'STRING_VARIABLE', value: '{{steps.lines.text}}' } },
  steps: [
    {
      id: 'lines',
      kind: 'code.javascript',
      args: {
        code: 'return { text: input.map((record) => record.name + ": " + String(record.amount * 2)).join("\\n") };',
        input: '{% $eval(inputs.Records) %}',
      },
    },
  ],
};

/**
 * A loop of pure steps against the same work in one code step: a 100-record forEach of one
 * `text.template` each (a JSONata expression per record) and one `code.javascript` step, both
 * account Choreos run sync one at a time in the same stack. The loop's p50 over the code step's
 * shows what an iteration costs beyond its work; the CPU of every process of the stack between
 * runs of 100 and 1,000 records, less the expression's own cost (measured here), is what a pure
 * iteration costs beyond its expression.
 */
export async function pureLoopCost(context: ScenarioContext): Promise<Row[]> {
  await putChoreo(context, TEMPLATE_LOOP, templateLoop);
  await putChoreo(context, CODE_OVER_RECORDS, codeOverRecords);
  const job = (choreo: string, count: number, durationMs: number, maxRequests = 5_000) =>
    runJob(context, choreo, { async: false, connections: 1, durationMs, maxRequests, body: recordsBody(count), executionDurations: true });

  await runLoad(job(TEMPLATE_LOOP, 100, context.warmupMs));
  await runLoad(job(CODE_OVER_RECORDS, 100, context.warmupMs));
  const phase = async (choreo: string, count: number) => {
    const before = cpuSnapshot(context.stack.pids());
    const result = await runLoad(job(choreo, count, context.durationMs));
    const after = cpuSnapshot(context.stack.pids());
    if (result.firstError) context.log(`  ${result.firstError}`);
    if (result.ok === 0) throw new Error(`no run of ${choreo} completed`);
    const cpu = cpuMsPerOperation(before, after, result.ok + (result.warmupCount ?? 0));
    return { result, cpuMsPerRun: Object.values(cpu).reduce((sum, ms) => sum + ms, 0), cpu };
  };
  const loop = await phase(TEMPLATE_LOOP, 100);
  const code = await phase(CODE_OVER_RECORDS, 100);
  const longLoop = await phase(TEMPLATE_LOOP, 1_000);
  const expressionMs = await expressionCost(context);
  const cpuPerIteration = (longLoop.cpuMsPerRun - loop.cpuMsPerRun) / 900;
  context.raw.pureLoopCost = { loop, code, longLoop, expressionMs };
  const ratio = round(loop.result.latencyMs.p50 / code.result.latencyMs.p50, 2);
  return [
    {
      scenario: '11 pure loop, sync',
      figure: '100-record forEach of text.template, p50',
      unit: 'ms',
      value: loop.result.latencyMs.p50,
      details: { latencyMs: loop.result.latencyMs, runDurationMs: loop.result.executionDurationMs, cpuMsPerRun: loop.cpu, runs: loop.result.ok },
    },
    {
      scenario: '11 one code step, sync',
      figure: 'the same work in one code.javascript step, p50',
      unit: 'ms',
      value: code.result.latencyMs.p50,
      details: { latencyMs: code.result.latencyMs, runDurationMs: code.result.executionDurationMs, cpuMsPerRun: code.cpu, runs: code.result.ok },
    },
    {
      scenario: '11 pure loop ÷ code step',
      figure: 'p50 of the loop ÷ p50 of the code step',
      unit: '×',
      value: ratio,
      target: { kind: 'at-most', limit: 2 },
    },
    {
      scenario: '11 CPU per pure iteration',
      figure: 'all processes, (1,000 − 100 records) ÷ 900, less the expression',
      unit: 'ms',
      value: round(cpuPerIteration - expressionMs, 4),
      target: { kind: 'at-most', limit: 0.05 },
      details: { cpuMsPerIteration: round(cpuPerIteration, 4), expressionMs: round(expressionMs, 4), longRunCpuMs: longLoop.cpu, longRuns: longLoop.result.ok },
    },
  ];
}

/** One record's expression, evaluated here as the engine does: its p50 in ms. */
async function expressionCost(context: ScenarioContext): Promise<number> {
  const expression = compileExpression(LINE);
  const items = records(100);
  const samples: number[] = [];
  const end = performance.now() + Math.min(context.durationMs, 3_000);
  let index = 0;
  while (performance.now() < end && samples.length < 50_000) {
    const item = must(items[index++ % items.length]);
    const expressionContext: TemplateContext = { inputs: {}, results: {}, completedSteps: 0, loop: { item, index } };
    const started = performance.now();
    await expression.evaluate(expressionContext);
    samples.push(performance.now() - started);
  }
  return summarize(samples).p50;
}

/** Writes an account Choreo through the API (PUT /choreos/<id>). */
function putChoreo(context: ScenarioContext, id: string, document: unknown): Promise<void> {
  const body = JSON.stringify(document);
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      `${context.stack.origin}${API_BASE}/choreos${id}`,
      {
        method: 'PUT',
        ca: readFileSync(context.stack.caFile),
        servername: 'localhost',
        agent: false,
        headers: { ...context.stack.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
        });
        response.on('end', () =>
          response.statusCode === 200 || response.statusCode === 201 ? resolve() : reject(new Error(`PUT ${id}: ${response.statusCode} ${text}`)),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
