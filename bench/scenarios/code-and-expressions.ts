import { compileExpression, type TemplateContext } from '@ces/language';
import { createSandbox } from '@ces/sandbox';
import { createStepLibrary, DEFAULT_STEP_LIBRARY_OPTIONS } from '@ces/steps';
import { round, summarize } from '../latency-summary.ts';
import type { Row } from '../report.ts';
import type { ScenarioContext } from './scenario-context.ts';

/** At most this many calls are measured per figure, however long the phase. */
const MAX_CALLS = 5_000;
const ORDERS = Array.from({ length: 20 }, (_, index) => ({ id: `o${index}`, customer: `c${index % 7}`, amount: (index * 37) % 101 }));
/** A small function: what SummarizeOrders does. */
const SMALL_FUNCTION = `
  const customers = [...new Set(input.map((order) => order.customer))].sort();
  const largest = input.reduce((best, order) => (order.amount > best.amount ? order : best));
  return { total: input.reduce((sum, order) => sum + order.amount, 0), customers, largest: largest.id };`;
const EXPRESSION = '{% $sum($eval(inputs.Orders).amount) %}';

/**
 * The cost of a `code.javascript` step and of a JSONata expression, in this process: a step kind's
 * arguments validated and its code run in the sandbox's (warm) process, as a worker does, one call
 * at a time; an expression evaluated on this thread with its guardrails, as the engine does.
 */
export async function codeAndExpressions(context: ScenarioContext): Promise<Row[]> {
  const library = createStepLibrary({ ...DEFAULT_STEP_LIBRARY_OPTIONS, sandbox: createSandbox() });
  const codeStep = library.get('code.javascript');
  if (codeStep === undefined) throw new Error('no code.javascript step kind');
  const signal = new AbortController().signal;
  const runCode = () => codeStep.run(codeStep.argsSchema.parse({ code: SMALL_FUNCTION, input: ORDERS }), { signal });

  const expression = compileExpression(EXPRESSION);
  const expressionContext: TemplateContext = { inputs: { Orders: JSON.stringify(ORDERS) }, results: {}, completedSteps: 0 };
  const evaluate = () => expression.evaluate(expressionContext);

  const code = await measure(runCode, context);
  const expressionTimes = await measure(evaluate, context);
  context.raw.codeAndExpressions = { code, expression: expressionTimes };
  return [
    {
      scenario: '8 code step',
      figure: 'small function, warm sandbox, p50 per call',
      unit: 'ms',
      value: code.p50,
      target: { kind: 'at-most', limit: 2 },
      details: { ...code, function: SMALL_FUNCTION.trim(), orders: ORDERS.length },
    },
    {
      scenario: '8 expression',
      figure: 'JSONata over 20 orders, p50 per evaluation',
      unit: 'ms',
      value: expressionTimes.p50,
      details: { ...expressionTimes, expression: EXPRESSION },
    },
  ];
}

/** Calls `call` one at a time: unmeasured for the warm-up, then measured for the phase (at most MAX_CALLS). */
async function measure(call: () => Promise<unknown>, context: ScenarioContext) {
  const warmEnd = performance.now() + context.warmupMs;
  while (performance.now() < warmEnd) await call();
  const samples: number[] = [];
  const end = performance.now() + context.durationMs;
  while (performance.now() < end && samples.length < MAX_CALLS) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  const summary = summarize(samples);
  return { ...summary, callsPerSecond: round(samples.length / (samples.reduce((sum, value) => sum + value, 0) / 1000), 1) };
}
