import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const completedSteps = {
  description: 'Steps completed, also when the run stopped early.',
  type: 'STRING_VARIABLE',
  value: '{{run.completedSteps}}',
};
const counterUrl = { description: 'Base URL of the test step counter for this run.', type: 'STRING_VARIABLE', required: true };
const call = (id: string, step: number, extra: Record<string, unknown> = {}) => ({
  id,
  kind: 'http.request',
  args: { method: 'POST', url: `{{inputs.CounterURL}}/step/${step}` },
  ...extra,
});
const wait = (id: string, input = 'WaitMilliseconds') => ({ id, kind: 'control.wait', args: { milliseconds: `{{inputs.${input}}}` } });
const waits = (count: number) => Array.from({ length: count }, (_, i) => wait(`wait${i + 1}`, 'StepMilliseconds'));
const stepMilliseconds = { description: 'How long each wait lasts.', type: 'STRING_VARIABLE', default: '500' };

function countedLoop(timeLimitSeconds: number | undefined) {
  return {
    description: 'A loop of counted calls, each followed by a wait.',
    ...(timeLimitSeconds !== undefined ? { timeLimitSeconds } : {}),
    inputs: {
      CounterURL: counterUrl,
      Count: { description: 'Iterations.', type: 'STRING_VARIABLE', default: '50' },
      WaitMilliseconds: { description: 'Each wait.', type: 'STRING_VARIABLE', default: '0' },
    },
    outputs: {
      CompletedSteps: completedSteps,
      Iterations: { description: 'Iterations completed.', type: 'STRING_VARIABLE', value: '{% $string($count(steps.each)) %}' },
      After: { description: 'The step after the loop.', type: 'STRING_VARIABLE', value: '{{steps.after.status}}' },
    },
    steps: [
      {
        id: 'each',
        forEach: '{% [0..($number(inputs.Count) - 1)] %}',
        steps: [{ id: 'call', kind: 'http.request', args: { method: 'POST', url: '{{inputs.CounterURL}}/step/{{loop.item}}' } }, wait('pause')],
      },
      call('after', 1_000_000),
    ],
  };
}

/**
 * Choreos for the worker tests, by id (under `/Test`). Steps that call the StepCounter are the
 * side effects a test counts; every step index is in the URL, so a repeated step shows.
 */
export const WORKER_TEST_CHOREOS: Record<string, unknown> = {
  // Calls at even indexes 0-6, waits at odd ones.
  'Test/Counted': {
    description: 'Four counted calls with waits between them.',
    inputs: { CounterURL: counterUrl, WaitMilliseconds: { description: 'Each wait.', type: 'STRING_VARIABLE', default: '500' } },
    outputs: {
      CompletedSteps: completedSteps,
      Third: { description: 'The answer to the third call.', type: 'STRING_VARIABLE', value: '{{steps.call2.body}}' },
      Last: { description: 'The answer to the last call.', type: 'STRING_VARIABLE', value: '{{steps.call6.body}}' },
    },
    steps: [call('call0', 0), wait('wait1'), call('call2', 2), wait('wait3'), call('call4', 4), wait('wait5'), call('call6', 6)],
  },
  // Calls at even indexes 0-20, waits at odd ones: long enough for a job lock to lapse mid-run.
  'Test/CountedMany': {
    description: 'Eleven counted calls with waits between them.',
    inputs: { CounterURL: counterUrl, WaitMilliseconds: { description: 'Each wait.', type: 'STRING_VARIABLE', default: '300' } },
    outputs: { CompletedSteps: completedSteps },
    steps: Array.from({ length: 21 }, (_, i) => (i % 2 === 0 ? call(`call${i}`, i) : wait(`wait${i}`))),
  },
  // One counted call per iteration (its index is the item), then a wait, under a loop.
  'Test/CountedLoop': countedLoop(undefined),
  'Test/CountedLoopLimited': countedLoop(1),
  // Pure steps around one counted call per iteration: their results wait for the call's write.
  'Test/PureAroundCalls': {
    description: 'A loop whose iterations compute, make one counted call and compute from its answer.',
    inputs: { CounterURL: counterUrl, Count: { description: 'Iterations.', type: 'STRING_VARIABLE', default: '50' } },
    outputs: {
      Iterations: { description: 'Iterations completed.', type: 'STRING_VARIABLE', value: '{% $string($count(steps.each)) %}' },
      Sum: { description: "The sum of every iteration's result.", type: 'STRING_VARIABLE', value: '{% $string($sum(steps.each.($number(text)))) %}' },
    },
    steps: [
      {
        id: 'each',
        forEach: '{% [0..($number(inputs.Count) - 1)] %}',
        steps: [
          { id: 'label', kind: 'text.template', args: { text: '{% "item " & $string(loop.item) %}' } },
          { id: 'call', kind: 'http.request', args: { method: 'POST', url: '{{inputs.CounterURL}}/step/{{loop.item}}', body: '{{steps.label.text}}' } },
          { id: 'tenfold', kind: 'text.template', args: { text: '{% $string($eval(steps.call.body).step * 10) %}' } },
        ],
      },
    ],
  },
  'Test/Waits': {
    description: 'Ten waits.',
    inputs: { StepMilliseconds: stepMilliseconds },
    outputs: { CompletedSteps: completedSteps },
    steps: waits(10),
  },
  'Test/Limited': {
    description: 'Ten waits under a one-second time limit.',
    timeLimitSeconds: 1,
    inputs: { StepMilliseconds: stepMilliseconds },
    outputs: { CompletedSteps: completedSteps },
    steps: waits(10),
  },
  'Test/LimitedCalls': {
    description: 'Two counted calls under a one-second time limit.',
    timeLimitSeconds: 1,
    inputs: { CounterURL: counterUrl },
    outputs: {
      CompletedSteps: completedSteps,
      First: { description: 'The answer to the first call.', type: 'STRING_VARIABLE', value: '{{steps.call0.body}}' },
    },
    steps: [call('call0', 0), call('call1', 1)],
  },
  'Test/TimedOut': {
    description: 'A call that never gets an answer, timed out and retried.',
    inputs: { CounterURL: counterUrl },
    outputs: { CompletedSteps: completedSteps },
    steps: [
      call('call0', 0),
      {
        id: 'hang',
        kind: 'http.request',
        args: { method: 'POST', url: '{{inputs.CounterURL}}/hang' },
        timeoutMs: 300,
        retry: { attempts: 3, backoffMs: 50 },
      },
    ],
  },
  'Test/Flaky': {
    description: 'A call whose connection drops twice before it succeeds, retried.',
    inputs: { CounterURL: counterUrl },
    outputs: { Answer: { description: 'The answer.', type: 'STRING_VARIABLE', value: '{{steps.flaky.body}}' } },
    steps: [
      {
        id: 'flaky',
        kind: 'http.request',
        args: { method: 'POST', url: '{{inputs.CounterURL}}/flaky/2' },
        retry: { attempts: 3, backoffMs: 50 },
      },
    ],
  },
  // Two steps per iteration of five; the check fails at iteration FailAt.
  'Test/LoopFailsAt': {
    description: 'A loop whose check fails at one iteration.',
    inputs: { FailAt: { description: 'The iteration that fails.', type: 'STRING_VARIABLE', default: '3' } },
    outputs: { CompletedSteps: completedSteps },
    steps: [
      {
        id: 'each',
        forEach: '{% [0..4] %}',
        steps: [
          { id: 'note', kind: 'noop', args: {} },
          { id: 'check', kind: 'control.fail', args: { message: 'item {{loop.item}} is bad', when: '{% $string(loop.item = $number(inputs.FailAt)) %}' } },
        ],
      },
    ],
  },
  // Instant steps only: run without a take, its history written by the end alone.
  'Test/Instant': {
    description: 'Two instant steps.',
    outputs: { CompletedSteps: completedSteps },
    steps: [
      { id: 'first', kind: 'control.fail', args: { message: 'never', when: 'false' } },
      { id: 'second', kind: 'control.fail', args: { message: 'never', when: 'false' } },
    ],
  },
  // A counted call, a wait (durable when long), and another counted call: the second call's time
  // shows when the wait ended, and a repeated call shows a run that ran twice.
  'Test/CountedWait': {
    description: 'A counted call, a wait, and a counted call.',
    inputs: { CounterURL: counterUrl, WaitMilliseconds: { description: 'The wait.', type: 'STRING_VARIABLE', default: '3000' } },
    outputs: { CompletedSteps: completedSteps },
    steps: [call('call0', 0), wait('wait1'), call('call2', 2)],
  },
  'Test/WaitLimited': {
    description: 'A wait under a two-second time limit.',
    timeLimitSeconds: 2,
    inputs: { WaitMilliseconds: { description: 'The wait.', type: 'STRING_VARIABLE', default: '60000' } },
    outputs: { CompletedSteps: completedSteps },
    steps: [wait('wait0')],
  },
  'Test/Quick': {
    description: 'One step that does nothing.',
    outputs: { CompletedSteps: completedSteps },
    steps: [{ id: 'nothing', kind: 'noop', args: {} }],
  },
};

/** Writes the worker test Choreos into a fresh folder, for a Stack's `choreosDir`. */
export function writeWorkerTestCatalogue(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'ces-choreos-'));
  for (const [id, definition] of Object.entries(WORKER_TEST_CHOREOS)) {
    const file = join(dir, `${id}.json`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(definition, null, 2));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
