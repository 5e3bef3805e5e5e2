import { describe, expect, it, vi } from 'vitest';
import { BLOCK_ENDED, type ChoreoDefinition, defineStepKind, InvalidStepInputError, parseDefinition, StepAbortedError, StepTimeoutError } from '@ces/language';
import { createStepLibrary } from '@ces/steps';
import { z } from 'zod';
import { runChoreo } from './run-choreo.ts';
import type { Checkpoint, CheckpointDelta, EngineHooks, ResumePoint, RunOutcome, StopReason } from './run-choreo.ts';

/** Every call of `test.count`, by name: the side effect a resumed run must not repeat. */
let calls: string[] = [];
let running = 0;
let mostRunning = 0;

const count = defineStepKind({
  kind: 'test.count',
  description: 'Records its name, waits a little when asked, and returns its name.',
  argsSchema: z.strictObject({ name: z.string(), pauseMs: z.coerce.number().default(0), fail: z.string().default('') }),
  run: async ({ name, pauseMs, fail }) => {
    calls.push(name);
    running += 1;
    mostRunning = Math.max(mostRunning, running);
    try {
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      if (fail === 'timeout') throw new StepTimeoutError(5);
      if (fail === 'invalid') throw new InvalidStepInputError(`bad ${name}`);
      return { name };
    } finally {
      running -= 1;
    }
  },
});

/** Why each `test.hold` step stopped waiting: the reason its signal was aborted with. */
let released: unknown[] = [];
let holding = 0;

const hold = defineStepKind({
  kind: 'test.hold',
  description: 'Waits until its signal is aborted, as a step waiting for a child execution does.',
  argsSchema: z.strictObject({}),
  run: (_args, { signal }) =>
    new Promise((_, reject) => {
      holding += 1;
      signal.addEventListener(
        'abort',
        () => {
          holding -= 1;
          released.push(signal.reason);
          reject(new StepAbortedError(signal.reason));
        },
        { once: true },
      );
    }),
});

const library = createStepLibrary({ http: { allowPrivateNetworks: true, timeoutMs: 1000, maxResponseBytes: 1024 }, extraKinds: [count, hold] });

function define(raw: Record<string, unknown>): ChoreoDefinition {
  const result = parseDefinition({ description: 'A test.', ...raw }, library);
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.definition;
}

interface Recorder extends EngineHooks {
  checkpoints: Checkpoint[];
  deltas: CheckpointDelta[];
  /** Every entry recorded, as a store would append it. */
  progress: Map<string, unknown>;
}

function recorder(stopBefore?: (calls: number) => StopReason | undefined): Recorder {
  const checkpoints: Checkpoint[] = [];
  const deltas: CheckpointDelta[] = [];
  const progress = new Map<string, unknown>();
  return {
    checkpoints,
    deltas,
    progress,
    beforeStep: () => stopBefore?.(calls.length),
    afterStep: async (checkpoint) => {
      checkpoints.push(checkpoint);
      progress.clear();
      return undefined;
    },
    afterProgress: async (delta) => {
      deltas.push(delta);
      for (const [address, value] of delta.entries) progress.set(address, value);
      return undefined;
    },
  };
}

async function run(
  definition: ChoreoDefinition,
  inputs: Record<string, string> = {},
  hooks: EngineHooks = recorder(),
  resumeFrom?: ResumePoint,
): Promise<RunOutcome> {
  calls = [];
  released = [];
  mostRunning = 0;
  return runChoreo({ definition, inputs, steps: library, hooks, ...(resumeFrom ? { resumeFrom } : {}) });
}

const classify = define({
  inputs: { Number: { description: 'A number.', required: true } },
  outputs: { Class: { description: 'Its class.', value: '{{steps.decide}}' } },
  steps: [
    {
      id: 'decide',
      choice: [
        { when: { value: '{{inputs.Number}}', lessThan: 0 }, steps: [{ id: 'negative', kind: 'text.template', args: { text: 'negative' } }] },
        { when: { value: '{{inputs.Number}}', equals: '0' }, steps: [{ id: 'zero', kind: 'text.template', args: { text: 'zero' } }] },
        { when: { value: '{{inputs.Number}}', greaterThan: 0 }, steps: [{ id: 'positive', kind: 'text.template', args: { text: 'positive' } }] },
      ],
      default: [{ id: 'other', kind: 'text.template', args: { text: 'not a number' } }],
    },
  ],
});

describe('choice', () => {
  it('runs the first branch whose condition holds, else the default; its result is the last step of the branch', async () => {
    const classOf = async (number: string) => {
      const outcome = await run(classify, { Number: number });
      expect(outcome.kind).toBe('completed');
      return (outcome.checkpoint.results.decide as { text: string }).text;
    };
    expect(await classOf('-3')).toBe('negative');
    expect(await classOf('0')).toBe('zero');
    expect(await classOf('2.5')).toBe('positive');
    expect(await classOf('abc')).toBe('not a number');
  });

  it('combines conditions and reads expressions and plain templates', async () => {
    const definition = define({
      inputs: { A: { description: 'A.', default: '' }, B: { description: 'B.', default: '' } },
      steps: [
        {
          id: 'pick',
          choice: [
            {
              when: { all: [{ value: '{{inputs.A}}', in: ['x', 'y'] }, { not: { value: '{{inputs.B}}', equals: 'no' } }] },
              steps: [{ id: 'both', kind: 'noop', args: { is: 'both' } }],
            },
            { when: '{% inputs.B = "big" %}', steps: [{ id: 'big', kind: 'noop', args: { is: 'big' } }] },
            { when: { any: [{ value: '{{inputs.A}}', equals: 'true' }, '{{inputs.B}}'] }, steps: [{ id: 'flag', kind: 'noop', args: { is: 'flag' } }] },
          ],
        },
      ],
    });
    const pick = async (inputs: Record<string, string>) => ((await run(definition, inputs)).checkpoint.results.pick as { is: string } | null)?.is ?? 'none';
    expect(await pick({ A: 'x', B: 'yes' })).toBe('both');
    expect(await pick({ A: 'x', B: 'no' })).toBe('none');
    expect(await pick({ A: 'z', B: 'big' })).toBe('big');
    expect(await pick({ A: 'z', B: 'TRUE ' })).toBe('flag');
  });

  it('treats a value that is not available as absent', async () => {
    const definition = define({
      steps: [
        { id: 'start', kind: 'noop', args: {} },
        {
          id: 'pick',
          choice: [
            { when: { value: '{{steps.start.missing}}', exists: true }, steps: [{ id: 'present', kind: 'noop', args: { is: 'present' } }] },
            { when: { value: '{{steps.start.missing}}', notEquals: 'x' }, steps: [{ id: 'absent', kind: 'noop', args: { is: 'absent' } }] },
          ],
        },
      ],
    });
    expect((await run(definition)).checkpoint.results.pick).toEqual({ is: 'absent' });
  });
});

describe('forEach', () => {
  const loop = (concurrency: number) =>
    define({
      inputs: { Items: { description: 'JSON array.', required: true } },
      outputs: { Names: { description: 'Names.', value: '{{steps.each}}' } },
      steps: [
        {
          id: 'each',
          forEach: '{{inputs.Items}}',
          concurrency,
          steps: [
            { id: 'first', kind: 'test.count', args: { name: '{{loop.index}}:{{loop.item.name}}', pauseMs: 5 } },
            { id: 'second', kind: 'text.template', args: { text: '{{steps.first.name}}!' } },
          ],
        },
      ],
    });
  const items = JSON.stringify(Array.from({ length: 12 }, (_, index) => ({ name: `n${index}` })));

  it("runs the steps once per item; its result is the list of each iteration's last result, in order", async () => {
    const hooks = recorder();
    const outcome = await run(loop(1), { Items: items }, hooks);
    expect(outcome.kind).toBe('completed');
    expect(outcome.checkpoint.results.each).toEqual(Array.from({ length: 12 }, (_, index) => ({ text: `${index}:n${index}!` })));
    expect(calls).toEqual(Array.from({ length: 12 }, (_, index) => `${index}:n${index}`));
    // Body step results stay inside their iterations.
    expect(outcome.checkpoint.results).not.toHaveProperty('first');
    expect(JSON.parse(outcome.checkpoint.outputs.Names ?? '')).toHaveLength(12);
  });

  it('records each completed iteration as one small entry appended, never the earlier ones again', async () => {
    const hooks = recorder();
    await run(loop(1), { Items: items }, hooks);
    const addresses = hooks.deltas.flatMap((delta) => delta.entries.map(([address]) => address));
    // Each iteration's first step before its second starts, then the iteration in place of both.
    expect(addresses.filter((address) => /^each\[\d+\]$/.test(address))).toEqual(Array.from({ length: 11 }, (_, index) => `each[${index}]`));
    expect(new Set(addresses).size).toBe(addresses.length);
    expect(Math.max(...hooks.deltas.map((delta) => delta.entries.length))).toBeLessThanOrEqual(2);
    expect(hooks.deltas.every((delta) => delta.nextStep === 0)).toBe(true);
    // The full checkpoint after the block carries the list once.
    expect(hooks.checkpoints).toHaveLength(1);
  });

  it('runs at most `concurrency` iterations at once, results still in input order', async () => {
    const outcome = await run(loop(4), { Items: items });
    expect(mostRunning).toBe(4);
    expect((outcome.checkpoint.results.each as { text: string }[]).map((result) => result.text)).toEqual(
      Array.from({ length: 12 }, (_, index) => `${index}:n${index}!`),
    );
  });

  it('fails on a list that is not a JSON array, naming the loop', async () => {
    const outcome = await run(loop(1), { Items: '{"a":1}' });
    expect(outcome).toMatchObject({ kind: 'failed', error: 'each: forEach needs a JSON array' });
  });

  it('fails with the address of the iteration that failed', async () => {
    const definition = define({
      steps: [
        {
          id: 'each',
          forEach: '[1,2,3]',
          steps: [{ id: 'call', kind: 'test.count', args: { name: '{{loop.item}}', fail: '{% loop.item = 2 ? "invalid" : "" %}' } }],
        },
      ],
    });
    expect(await run(definition)).toMatchObject({ kind: 'failed', error: 'each[1].call: bad 2' });
    expect(calls).toEqual(['1', '2']);
  });
});

describe('repeat', () => {
  const pages = (maxIterations: number) =>
    define({
      outputs: { Pages: { description: 'Pages.', value: '{{steps.pages}}' } },
      steps: [
        {
          id: 'pages',
          repeat: { item: '1', nextItem: '{% $string($number(loop.item) + 1) %}', until: { value: '{{loop.item}}', equals: '4' }, maxIterations },
          steps: [{ id: 'page', kind: 'test.count', args: { name: 'page {{loop.item}} at {{loop.index}}' } }],
        },
      ],
    });

  it('runs until its condition holds after an iteration, passing an item from one iteration to the next', async () => {
    const outcome = await run(pages(10));
    expect(outcome.kind).toBe('completed');
    expect(calls).toEqual(['page 1 at 0', 'page 2 at 1', 'page 3 at 2', 'page 4 at 3']);
    expect(outcome.checkpoint.results.pages).toEqual(calls.map((name) => ({ name })));
  });

  it('fails past its maximum of iterations', async () => {
    expect(await run(pages(3))).toMatchObject({ kind: 'failed', error: 'pages: ran 3 iterations (its maxIterations) without its "until" holding' });
    expect(calls).toHaveLength(3);
  });
});

describe('parallel', () => {
  it('runs its branches at once and joins them; their steps are readable after it', async () => {
    const definition = define({
      outputs: { Left: { description: 'Left.', value: '{{steps.left.name}}' } },
      steps: [
        {
          id: 'both',
          parallel: [
            [{ id: 'left', kind: 'test.count', args: { name: 'left', pauseMs: 20 } }],
            [
              { id: 'right', kind: 'test.count', args: { name: 'right', pauseMs: 20 } },
              { id: 'after', kind: 'text.template', args: { text: '{{steps.right.name}} done' } },
            ],
          ],
        },
      ],
    });
    const outcome = await run(definition);
    expect(mostRunning).toBe(2);
    expect(outcome.checkpoint.results.both).toEqual([{ name: 'left' }, { text: 'right done' }]);
    expect(outcome.checkpoint.outputs).toEqual({ Left: 'left' });
  });

  it("fails with the first branch's failure and starts no further step in the others", async () => {
    const definition = define({
      steps: [
        {
          id: 'both',
          parallel: [
            [{ id: 'bad', kind: 'test.count', args: { name: 'bad', fail: 'invalid' } }],
            [
              { id: 'slow', kind: 'test.count', args: { name: 'slow', pauseMs: 20 } },
              { id: 'never', kind: 'test.count', args: { name: 'never' } },
            ],
          ],
        },
      ],
    });
    expect(await run(definition)).toMatchObject({ kind: 'failed', error: 'bad: bad bad' });
    expect(calls.sort()).toEqual(['bad', 'slow']);
  });

  it('stops a step still running in another branch when one fails, and a catch around it takes the failure', async () => {
    const definition = define({
      outputs: { Caught: { description: 'The caught failure.', value: '{{steps.recover.text}}' } },
      steps: [
        {
          id: 'guard',
          try: [
            {
              id: 'both',
              parallel: [
                [{ id: 'waiting', kind: 'test.hold' }],
                [
                  { id: 'slow', kind: 'test.count', args: { name: 'slow', pauseMs: 20 } },
                  { id: 'bad', kind: 'test.count', args: { name: 'bad', fail: 'invalid' } },
                ],
              ],
            },
          ],
          catch: [{ steps: [{ id: 'recover', kind: 'text.template', args: { text: '{{error.message}}' } }] }],
        },
      ],
    });
    const outcome = await run(definition);
    expect(outcome.kind).toBe('completed');
    expect(outcome.checkpoint.outputs).toEqual({ Caught: 'bad bad' });
    expect(released).toEqual([BLOCK_ENDED]);
  });

  it('stops the iterations still running in a concurrent forEach when one fails', async () => {
    const definition = define({
      steps: [
        {
          id: 'each',
          forEach: '[1,2,3]',
          concurrency: 3,
          steps: [
            {
              id: 'pick',
              choice: [
                {
                  when: { value: '{{loop.item}}', equals: '3' },
                  steps: [{ id: 'bad', kind: 'test.count', args: { name: 'bad', fail: 'invalid', pauseMs: 10 } }],
                },
              ],
              default: [{ id: 'waiting', kind: 'test.hold' }],
            },
          ],
        },
      ],
    });
    expect(await run(definition)).toMatchObject({ kind: 'failed', error: 'each[2].bad: bad bad' });
    expect(released).toEqual([BLOCK_ENDED, BLOCK_ENDED]);
  });

  it("is stopped as a whole by the run's own stop, which is not taken for a branch ending", async () => {
    const controller = new AbortController();
    const definition = define({
      steps: [{ id: 'both', parallel: [[{ id: 'one', kind: 'test.hold' }], [{ id: 'two', kind: 'test.hold' }]] }],
    });
    calls = [];
    released = [];
    const running = runChoreo({ definition, inputs: {}, steps: library, hooks: recorder(), signal: controller.signal });
    await vi.waitFor(() => expect(holding).toBe(2));
    controller.abort('termination-requested');
    expect(await running).toMatchObject({ kind: 'stopped', reason: 'termination-requested' });
    expect(released).toEqual(['termination-requested', 'termination-requested']);
  });
});

describe('try', () => {
  const guarded = (errors: string[] | undefined, fail: string) =>
    define({
      outputs: { Result: { description: 'Result.', value: '{{steps.guard}}' }, Cleaned: { description: 'Finally ran.', value: '{{steps.cleanup.name}}' } },
      steps: [
        {
          id: 'guard',
          try: [
            { id: 'before', kind: 'test.count', args: { name: 'before' } },
            { id: 'risky', kind: 'test.count', args: { name: 'risky', fail } },
          ],
          catch: [
            {
              ...(errors ? { errors } : {}),
              steps: [
                { id: 'fallback', kind: 'text.template', args: { text: '{{error.type}} in {{error.step}}: {{error.message}} after {{steps.before.name}}' } },
              ],
            },
          ],
          finally: [{ id: 'cleanup', kind: 'test.count', args: { name: 'cleanup' } }],
        },
      ],
    });

  it('catches a failure of the selected type and continues on the catch path; finally runs after', async () => {
    const outcome = await run(guarded(['invalid'], 'invalid'));
    expect(outcome.kind).toBe('completed');
    expect(outcome.checkpoint.outputs).toEqual({ Result: '{"text":"invalid in risky: bad risky after before"}', Cleaned: 'cleanup' });
    expect(calls).toEqual(['before', 'risky', 'cleanup']);
  });

  it('leaves other types of failure to fail the run, after finally', async () => {
    expect(await run(guarded(['timeout'], 'invalid'))).toMatchObject({ kind: 'failed', error: 'risky: bad risky' });
    expect(calls).toEqual(['before', 'risky', 'cleanup']);
    const outcome = await run(guarded(undefined, 'timeout'));
    expect(outcome.checkpoint.outputs.Result).toBe('{"text":"timeout in risky: timed out after 5 ms after before"}');
  });

  it('runs finally when nothing failed, the result being the last step of the try', async () => {
    const outcome = await run(guarded(['invalid'], ''));
    expect(outcome.checkpoint.results.guard).toEqual({ name: 'risky' });
    expect(calls).toEqual(['before', 'risky', 'cleanup']);
  });

  it('catches a fail by its type, with its message', async () => {
    const definition = define({
      steps: [
        {
          id: 'guard',
          try: [{ id: 'stop', fail: 'no {{inputs.What}}' }],
          catch: [{ errors: ['fail'], steps: [{ id: 'caught', kind: 'text.template', args: { text: '{{error.message}}' } }] }],
        },
      ],
      inputs: { What: { description: 'What.', default: 'luck' } },
    });
    expect((await run(definition, { What: 'luck' })).checkpoint.results.guard).toEqual({ text: 'no luck' });
  });
});

describe('return and fail', () => {
  it('return ends the run at once with its outputs, over the computed ones', async () => {
    const definition = define({
      outputs: { Found: { description: 'Found.', value: 'no' }, Where: { description: 'Where.', value: '{{steps.search}}' } },
      steps: [
        {
          id: 'search',
          forEach: '["a","b","c"]',
          steps: [
            { id: 'look', kind: 'test.count', args: { name: '{{loop.item}}' } },
            { id: 'hit', choice: [{ when: { value: '{{loop.item}}', equals: 'b' }, steps: [{ id: 'done', return: { Found: 'yes: {{steps.look.name}}' } }] }] },
          ],
        },
        { id: 'never', kind: 'test.count', args: { name: 'never' } },
      ],
    });
    const outcome = await run(definition);
    expect(outcome).toMatchObject({ kind: 'completed', checkpoint: { nextStep: 2, outputs: { Found: 'yes: b' } } });
    expect(calls).toEqual(['a', 'b']);
  });

  it('fail ends the run with its message, naming it', async () => {
    const definition = define({ steps: [{ id: 'check', fail: 'nothing to do' }] });
    expect(await run(definition)).toMatchObject({ kind: 'failed', error: 'check: nothing to do' });
  });
});

describe('resuming a block', () => {
  const loop = define({
    steps: [
      { id: 'before', kind: 'test.count', args: { name: 'before' } },
      {
        id: 'each',
        forEach: '{% [1..20] %}',
        steps: [
          { id: 'a', kind: 'test.count', args: { name: 'a{{loop.item}}' } },
          { id: 'b', kind: 'test.count', args: { name: 'b{{loop.item}}' } },
        ],
      },
      { id: 'after', kind: 'test.count', args: { name: 'after' } },
    ],
  });

  it('stops between steps of an iteration and resumes there: no completed step or iteration runs again', async () => {
    // Stops before the 17th call: after a8, before b8.
    const first = recorder((made) => (made === 16 ? 'shutdown' : undefined));
    const stopped = await run(loop, {}, first);
    expect(stopped).toMatchObject({ kind: 'stopped', reason: 'shutdown', checkpoint: { nextStep: 1 } });
    const firstCalls = calls;
    expect(firstCalls.at(-1)).toBe('a8');
    expect(first.progress.get('each[6]')).toEqual({ name: 'b7' });
    expect(first.progress.get('each[7].a')).toEqual({ name: 'a8' });

    const second = recorder();
    const resumed = await run(loop, {}, second, { ...stopped.checkpoint, progress: first.progress });
    expect(resumed.kind).toBe('completed');
    expect(calls[0]).toBe('b8');
    const all = [...firstCalls, ...calls];
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(1 + 40 + 1);
    expect((resumed.checkpoint.results.each as unknown[]).length).toBe(20);
  });

  it('resumes nested loops inside the inner iteration it was in, and a caught failure of a loop inside a try', async () => {
    const definition = define({
      steps: [
        {
          id: 'guard',
          try: [
            {
              id: 'outer',
              forEach: '["a","b","c"]',
              steps: [
                {
                  id: 'inner',
                  forEach: '[1,2,3]',
                  steps: [{ id: 'leaf', kind: 'test.count', args: { name: '{{loop.index}}' } }],
                },
                { id: 'mark', kind: 'test.count', args: { name: 'mark {{loop.item}}', fail: '{% loop.item = "c" ? "invalid" : "" %}' } },
              ],
            },
          ],
          catch: [{ errors: ['invalid'], steps: [{ id: 'caught', kind: 'text.template', args: { text: '{{error.step}}' } }] }],
        },
      ],
    });
    // Stops before the 7th call: in the middle of outer[1]'s inner loop (after its leaf 1 and 2).
    const first = recorder((made) => (made === 6 ? 'shutdown' : undefined));
    const stopped = await run(definition, {}, first);
    expect(calls).toEqual(['0', '1', '2', 'mark a', '0', '1']);
    expect(first.progress.has('outer[0]')).toBe(true);
    expect(first.progress.has('outer[1].inner[1]')).toBe(true);
    const resumed = await run(definition, {}, recorder(), { ...stopped.checkpoint, progress: first.progress });
    expect(calls).toEqual(['2', 'mark b', '0', '1', '2', 'mark c']);
    expect(resumed.checkpoint.results.guard).toEqual({ text: 'outer[2].mark' });
  });

  it('takes a caught failure again from its entry, without running the failed step again', async () => {
    const definition = define({
      steps: [
        {
          id: 'guard',
          try: [{ id: 'risky', kind: 'test.count', args: { name: 'risky', fail: 'invalid' } }],
          catch: [
            {
              steps: [
                { id: 'one', kind: 'test.count', args: { name: 'one' } },
                { id: 'two', kind: 'test.count', args: { name: 'two {{error.message}}' } },
              ],
            },
          ],
        },
      ],
    });
    const first = recorder((made) => (made === 2 ? 'shutdown' : undefined));
    const stopped = await run(definition, {}, first);
    expect(calls).toEqual(['risky', 'one']);
    const resumed = await run(definition, {}, recorder(), { ...stopped.checkpoint, progress: first.progress });
    expect(calls).toEqual(['two bad risky']);
    expect(resumed.kind).toBe('completed');
  });

  it('resumes a repeat at the iteration it was in, with the item it had', async () => {
    const definition = define({
      steps: [
        {
          id: 'pages',
          repeat: {
            item: '0',
            nextItem: '{% $string($number(loop.item) + 1) %}',
            until: { value: '{{loop.item}}', greaterThanOrEqual: 9 },
            maxIterations: 100,
          },
          steps: [{ id: 'page', kind: 'test.count', args: { name: 'p{{loop.item}}' } }],
        },
      ],
    });
    const first = recorder((made) => (made === 4 ? 'termination-requested' : undefined));
    const stopped = await run(definition, {}, first);
    expect(stopped).toMatchObject({ kind: 'stopped', reason: 'termination-requested' });
    expect(calls).toEqual(['p0', 'p1', 'p2', 'p3']);
    const resumed = await run(definition, {}, recorder(), { ...stopped.checkpoint, progress: first.progress });
    expect(calls).toEqual(['p4', 'p5', 'p6', 'p7', 'p8', 'p9']);
    expect((resumed.checkpoint.results.pages as unknown[]).length).toBe(10);
  });
});
