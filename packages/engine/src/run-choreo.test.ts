import { describe, expect, it, vi } from 'vitest';
import { createStepLibrary } from '@ces/steps';
import {
  type ChoreoDefinition,
  DEFAULT_STEP_TIMEOUT_MS,
  defineStepKind,
  InvalidStepInputError,
  parseDefinition,
  StepFailedError,
  type StepKind,
} from '@ces/language';
import { z } from 'zod';
import { runChoreo } from './run-choreo.ts';
import type { Checkpoint, CheckpointDelta, EngineHooks, StepEndEvent, StopReason } from './run-choreo.ts';

const calls: string[] = [];

const record = defineStepKind({
  kind: 'test.record',
  description: 'Records its name and returns it.',
  argsSchema: z.strictObject({ name: z.string() }),
  run: async ({ name }) => {
    calls.push(name);
    return { name };
  },
});

function flaky(failures: number, error: () => Error): StepKind {
  let remaining = failures;
  return defineStepKind({
    kind: 'test.flaky',
    description: 'Fails a number of times, then succeeds.',
    argsSchema: z.strictObject({}),
    run: async () => {
      calls.push('flaky');
      if (remaining-- > 0) throw error();
      return { ok: true };
    },
  });
}

const hang = defineStepKind({
  kind: 'test.hang',
  description: 'Never settles and ignores its signal.',
  argsSchema: z.strictObject({}),
  run: () => new Promise(() => {}),
});

const library = (...extraKinds: StepKind[]) =>
  createStepLibrary({ http: { allowPrivateNetworks: true, timeoutMs: 1000, maxResponseBytes: 1024 }, extraKinds: [record, ...extraKinds] });

function define(raw: unknown, ...extraKinds: StepKind[]): ChoreoDefinition {
  const result = parseDefinition(raw, library(...extraKinds));
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.definition;
}

const threeSteps = define({
  description: 'Three recorded steps.',
  inputs: { Prefix: { description: 'Prefix.', default: 'p' } },
  outputs: {
    Last: { description: 'Name of the last step.', value: '{{steps.c.name}}' },
    First: { description: 'Name of the first step.', value: '{{steps.a.name}}' },
    Done: { description: 'Steps completed.', value: '{{run.completedSteps}}' },
  },
  steps: [
    { id: 'a', kind: 'test.record', args: { name: '{{inputs.Prefix}}-a' } },
    { id: 'b', kind: 'test.record', args: { name: '{{steps.a.name}}-b' } },
    { id: 'c', kind: 'test.record', args: { name: '{{steps.b.name}}-c' } },
  ],
});

function hooks(overrides: Partial<EngineHooks> = {}): EngineHooks & { checkpoints: Checkpoint[]; deltas: CheckpointDelta[] } {
  const checkpoints: Checkpoint[] = [];
  const deltas: CheckpointDelta[] = [];
  return {
    checkpoints,
    deltas,
    afterProgress:
      overrides.afterProgress ??
      (async (delta) => {
        deltas.push(delta);
        return undefined;
      }),
    beforeStep: overrides.beforeStep ?? (() => undefined),
    afterStep:
      overrides.afterStep ??
      (async (checkpoint) => {
        checkpoints.push(checkpoint);
        return undefined;
      }),
  };
}

describe('runChoreo', () => {
  it('runs steps in order, passing results forward, and checkpoints after each', async () => {
    calls.length = 0;
    const engineHooks = hooks();
    const outcome = await runChoreo({ definition: threeSteps, inputs: { Prefix: 'x' }, steps: library(), hooks: engineHooks });
    expect(calls).toEqual(['x-a', 'x-a-b', 'x-a-b-c']);
    expect(outcome).toEqual({
      kind: 'completed',
      checkpoint: {
        nextStep: 3,
        results: { a: { name: 'x-a' }, b: { name: 'x-a-b' }, c: { name: 'x-a-b-c' } },
        outputs: { Last: 'x-a-b-c', First: 'x-a', Done: '3' },
      },
    });
    expect(engineHooks.checkpoints.map((checkpoint) => checkpoint.nextStep)).toEqual([1, 2, 3]);
    expect(engineHooks.checkpoints[0]?.outputs).toEqual({ First: 'x-a', Done: '1' });
  });

  it('fails a run whose step result, or whose outputs, would outgrow the limits, keeping the last checkpoint', async () => {
    const limits = { maxStepResultChars: 100, maxOutputsChars: 150, maxResultsChars: 10_000 };
    calls.length = 0;
    const big = await runChoreo({ definition: threeSteps, inputs: { Prefix: 'x'.repeat(120) }, steps: library(), hooks: hooks(), limits });
    expect(big).toEqual({
      kind: 'failed',
      error: 'a: the result is longer than 100 characters',
      checkpoint: { nextStep: 0, results: {}, outputs: { Done: '0' } },
    });
    // Each result fits; the outputs fit until Last joins First after step c (each over 70 characters).
    const engineHooks = hooks();
    const outputs = await runChoreo({ definition: threeSteps, inputs: { Prefix: 'x'.repeat(70) }, steps: library(), hooks: engineHooks, limits });
    expect(outputs).toMatchObject({ kind: 'failed', error: 'c: the outputs would be longer than 150 characters', checkpoint: { nextStep: 2 } });
    expect(engineHooks.checkpoints.map((checkpoint) => checkpoint.nextStep)).toEqual([1, 2]);
    // Each result and the outputs fit, but not all the results together.
    const results = await runChoreo({
      definition: threeSteps,
      inputs: { Prefix: 'x'.repeat(70) },
      steps: library(),
      hooks: hooks(),
      limits: { maxStepResultChars: 1000, maxOutputsChars: 1000, maxResultsChars: 200 },
    });
    expect(results).toMatchObject({
      kind: 'failed',
      error: 'c: the results of the steps so far would be longer than 200 characters',
      checkpoint: { nextStep: 2 },
    });
    // The defaults leave ordinary runs alone.
    expect((await runChoreo({ definition: threeSteps, inputs: { Prefix: 'x'.repeat(70) }, steps: library(), hooks: hooks() })).kind).toBe('completed');
  });

  it('resumes after the last completed step without running completed steps again', async () => {
    calls.length = 0;
    const resumeFrom: Checkpoint = { nextStep: 2, results: { a: { name: 'old-a' }, b: { name: 'old-b' } }, outputs: {} };
    const outcome = await runChoreo({ definition: threeSteps, inputs: {}, steps: library(), hooks: hooks(), resumeFrom });
    expect(calls).toEqual(['old-b-c']);
    expect(outcome.kind).toBe('completed');
    expect(outcome.checkpoint.outputs).toEqual({ Last: 'old-b-c', First: 'old-a', Done: '3' });
  });

  it('stops before a step when beforeStep returns a reason, keeping the outputs so far', async () => {
    calls.length = 0;
    const seen: number[] = [];
    const engineHooks = hooks({
      beforeStep: (index) => {
        seen.push(index);
        return index === 1 ? 'termination-requested' : undefined;
      },
    });
    const outcome = await runChoreo({ definition: threeSteps, inputs: { Prefix: 'y' }, steps: library(), hooks: engineHooks });
    expect(seen).toEqual([0, 1]);
    expect(calls).toEqual(['y-a']);
    expect(outcome).toMatchObject({ kind: 'stopped', reason: 'termination-requested', checkpoint: { nextStep: 1, outputs: { First: 'y-a', Done: '1' } } });
  });

  it('stops after a step when afterStep returns a reason', async () => {
    calls.length = 0;
    const engineHooks = hooks({ afterStep: async (checkpoint) => (checkpoint.nextStep === 2 ? 'time-limit' : undefined) });
    const outcome = await runChoreo({ definition: threeSteps, inputs: { Prefix: 'p' }, steps: library(), hooks: engineHooks });
    expect(calls).toEqual(['p-a', 'p-a-b']);
    expect(outcome).toMatchObject({ kind: 'stopped', reason: 'time-limit', checkpoint: { nextStep: 2 } });
  });

  it('stops even when afterStep asks to after the last step', async () => {
    const outcome = await runChoreo({
      definition: threeSteps,
      inputs: {},
      steps: library(),
      hooks: hooks({ afterStep: async ({ nextStep }) => (nextStep === 3 ? 'termination-requested' : undefined) }),
    });
    expect(outcome).toMatchObject({ kind: 'stopped', reason: 'termination-requested', checkpoint: { nextStep: 3, outputs: { Done: '3' } } });
  });

  it('interrupts a wait step when the signal aborts, without counting it as completed', async () => {
    const definition = define({
      description: 'Waits.',
      outputs: { Done: { description: 'Completed steps.', value: '{{run.completedSteps}}' } },
      steps: [
        { id: 'first', kind: 'noop' },
        { id: 'long', kind: 'control.wait', args: { milliseconds: 60_000 } },
      ],
    });
    const controller = new AbortController();
    const engineHooks = hooks({
      beforeStep: (index) => {
        if (index === 1) setTimeout(() => controller.abort('shutdown' satisfies StopReason), 5);
        return undefined;
      },
    });
    const started = performance.now();
    const outcome = await runChoreo({ definition, inputs: {}, steps: library(), hooks: engineHooks, signal: controller.signal });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(outcome).toEqual({ kind: 'stopped', reason: 'shutdown', checkpoint: { nextStep: 1, results: { first: {} }, outputs: { Done: '1' } } });
  });

  it('lets a step that ignores the signal finish, then stops before the next one', async () => {
    calls.length = 0;
    const controller = new AbortController();
    const slow = defineStepKind({
      kind: 'test.slow',
      description: 'Aborts the run while it runs, and completes anyway.',
      argsSchema: z.strictObject({}),
      run: async () => {
        controller.abort();
        return { finished: true };
      },
    });
    const definition = define(
      {
        description: 'Slow then record.',
        steps: [
          { id: 's', kind: 'test.slow' },
          { id: 'r', kind: 'test.record', args: { name: 'r' } },
        ],
      },
      slow,
    );
    const outcome = await runChoreo({ definition, inputs: {}, steps: library(slow), hooks: hooks(), signal: controller.signal });
    expect(calls).toEqual([]);
    expect(outcome).toMatchObject({ kind: 'stopped', reason: 'termination-requested', checkpoint: { nextStep: 1, results: { s: { finished: true } } } });
  });

  it('fails a step that exceeds its timeout, even when it ignores its signal', async () => {
    vi.useFakeTimers();
    try {
      const definition = define({ description: 'Hangs.', steps: [{ id: 'stuck', kind: 'test.hang', timeoutMs: 2000 }] }, hang);
      const running = runChoreo({ definition, inputs: {}, steps: library(hang), hooks: hooks() });
      await vi.advanceTimersByTimeAsync(2000);
      expect(await running).toMatchObject({ kind: 'failed', error: 'stuck: timed out after 2000 ms', checkpoint: { nextStep: 0 } });
    } finally {
      vi.useRealTimers();
    }
  });

  it("gives a step that sets no timeout its kind's default, or the definitions' default", async () => {
    vi.useFakeTimers();
    try {
      const patient = defineStepKind({ ...hang, kind: 'test.patient', defaultTimeoutMs: 90_000 });
      const definition = define({ description: 'Hangs long.', steps: [{ id: 'stuck', kind: 'test.patient' }] }, patient);
      const running = runChoreo({ definition, inputs: {}, steps: library(patient), hooks: hooks() });
      await vi.advanceTimersByTimeAsync(90_000);
      expect(await running).toMatchObject({ kind: 'failed', error: 'stuck: timed out after 90000 ms' });

      // A wait longer than the definitions' default minute completes.
      const waiting = define({ description: 'Waits.', steps: [{ id: 'w', kind: 'control.wait', args: { milliseconds: '61000' } }] });
      const waited = runChoreo({ definition: waiting, inputs: {}, steps: library(), hooks: hooks() });
      await vi.advanceTimersByTimeAsync(61_000);
      expect(await waited).toMatchObject({ kind: 'completed' });

      const plain = define({ description: 'Hangs.', steps: [{ id: 'stuck', kind: 'test.hang' }] }, hang);
      const failing = runChoreo({ definition: plain, inputs: {}, steps: library(hang), hooks: hooks() });
      await vi.advanceTimersByTimeAsync(DEFAULT_STEP_TIMEOUT_MS);
      expect(await failing).toMatchObject({ kind: 'failed', error: `stuck: timed out after ${DEFAULT_STEP_TIMEOUT_MS} ms` });
    } finally {
      vi.useRealTimers();
    }
  });

  it('retries a failing step with exponential backoff until it succeeds', async () => {
    vi.useFakeTimers();
    try {
      calls.length = 0;
      const kind = flaky(2, () => new Error('connection reset'));
      const definition = define({ description: 'Flaky.', steps: [{ id: 'f', kind: 'test.flaky', retry: { attempts: 3, backoffMs: 100 } }] }, kind);
      const running = runChoreo({ definition, inputs: {}, steps: library(kind), hooks: hooks() });
      await vi.advanceTimersByTimeAsync(99);
      expect(calls).toEqual(['flaky']);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toEqual(['flaky', 'flaky']);
      await vi.advanceTimersByTimeAsync(200);
      expect(calls).toEqual(['flaky', 'flaky', 'flaky']);
      expect(await running).toMatchObject({ kind: 'completed', checkpoint: { results: { f: { ok: true } } } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up after the last attempt with the last error', async () => {
    calls.length = 0;
    const kind = flaky(5, () => new StepFailedError('server said 503'));
    const definition = define({ description: 'Flaky.', steps: [{ id: 'f', kind: 'test.flaky', retry: { attempts: 2, backoffMs: 0 } }] }, kind);
    const outcome = await runChoreo({ definition, inputs: {}, steps: library(kind), hooks: hooks() });
    expect(calls).toEqual(['flaky', 'flaky']);
    expect(outcome).toMatchObject({ kind: 'failed', error: 'f: server said 503' });
  });

  it('does not retry a non-retryable error', async () => {
    calls.length = 0;
    const kind = flaky(1, () => new InvalidStepInputError('bad data'));
    const definition = define({ description: 'Flaky.', steps: [{ id: 'f', kind: 'test.flaky', retry: { attempts: 5, backoffMs: 0 } }] }, kind);
    const outcome = await runChoreo({ definition, inputs: {}, steps: library(kind), hooks: hooks() });
    expect(calls).toEqual(['flaky']);
    expect(outcome).toMatchObject({ kind: 'failed', error: 'f: bad data' });
  });

  it('fails with the checkpoint as of before the failing step, outputs so far included', async () => {
    const definition = define({
      description: 'Fails at the second step.',
      inputs: { Message: { description: 'Why.', required: true } },
      outputs: {
        Done: { description: 'Completed steps.', value: '{{run.completedSteps}}' },
        After: { description: 'Never computed.', value: '{{steps.after}}' },
      },
      steps: [
        { id: 'before', kind: 'noop' },
        { id: 'stop', kind: 'control.fail', args: { message: '{{inputs.Message}}' } },
        { id: 'after', kind: 'noop' },
      ],
    });
    const outcome = await runChoreo({ definition, inputs: { Message: 'no luck' }, steps: library(), hooks: hooks() });
    expect(outcome).toEqual({ kind: 'failed', error: 'stop: no luck', checkpoint: { nextStep: 1, results: { before: {} }, outputs: { Done: '1' } } });
  });

  it('fails a step whose rendered arguments do not validate', async () => {
    const definition = define({
      description: 'Waits a non-number.',
      inputs: { Ms: { description: 'Milliseconds.', required: true } },
      steps: [{ id: 'w', kind: 'control.wait', args: { milliseconds: '{{inputs.Ms}}' } }],
    });
    const outcome = await runChoreo({ definition, inputs: { Ms: 'soon' }, steps: library(), hooks: hooks() });
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind === 'failed' && outcome.error).toMatch(/^w: invalid arguments: args\.milliseconds: /);
  });

  it('reports each step to onStepEnd', async () => {
    const events: unknown[] = [];
    await runChoreo({
      definition: threeSteps,
      inputs: {},
      steps: library(),
      hooks: hooks(),
      onStepEnd: ({ durationMs, attempts, ...event }) => {
        expect(durationMs).toBeGreaterThanOrEqual(0);
        expect(attempts).toEqual([{ attempt: 1, start: expect.any(Number), end: expect.any(Number), durationMs: expect.any(Number), outcome: 'succeeded' }]);
        events.push(event);
      },
    });
    expect(events).toEqual([
      { index: 0, id: 'a', address: 'a', kind: 'test.record', ok: true },
      { index: 1, id: 'b', address: 'b', kind: 'test.record', ok: true },
      { index: 2, id: 'c', address: 'c', kind: 'test.record', ok: true },
    ]);
  });

  it('reports each attempt of a retried step, with its error, to onStepEnd', async () => {
    const kind = flaky(5, () => new StepFailedError('server said 503'));
    const definition = define({ description: 'Flaky.', steps: [{ id: 'f', kind: 'test.flaky', retry: { attempts: 3, backoffMs: 0 } }] }, kind);
    const events: StepEndEvent[] = [];
    await runChoreo({ definition, inputs: {}, steps: library(kind), hooks: hooks(), onStepEnd: (event) => events.push(event) });
    expect(events).toHaveLength(1);
    expect(events[0]?.ok).toBe(false);
    expect(events[0]?.attempts.map(({ attempt, outcome, error }) => ({ attempt, outcome, error }))).toEqual([
      { attempt: 1, outcome: 'failed', error: 'server said 503' },
      { attempt: 2, outcome: 'failed', error: 'server said 503' },
      { attempt: 3, outcome: 'failed', error: 'server said 503' },
    ]);
    for (const attempt of events[0]?.attempts ?? []) expect(attempt.end).toBeGreaterThanOrEqual(attempt.start);
  });

  it('reports a step whose arguments do not validate as one failed attempt', async () => {
    const definition = define({
      description: 'Waits a non-number.',
      inputs: { Ms: { description: 'Milliseconds.', required: true } },
      steps: [{ id: 'w', kind: 'control.wait', args: { milliseconds: '{{inputs.Ms}}' } }],
    });
    const events: StepEndEvent[] = [];
    await runChoreo({ definition, inputs: { Ms: 'soon' }, steps: library(), hooks: hooks(), onStepEnd: (event) => events.push(event) });
    expect(events.map((event) => event.attempts.map(({ attempt, outcome }) => [attempt, outcome]))).toEqual([[[1, 'failed']]]);
    expect(events[0]?.attempts[0]?.error).toMatch(/^invalid arguments: args\.milliseconds: /);
  });

  it('keeps the cost of a no-op step small', async () => {
    const count = 200;
    const definition = define({
      description: 'Many no-ops.',
      outputs: { Done: { description: 'Completed steps.', value: '{{run.completedSteps}}' } },
      steps: Array.from({ length: count }, (_, index) => ({ id: `s${index}`, kind: 'noop', args: { index: '{{run.completedSteps}}' } })),
    });
    const steps = library();
    await runChoreo({ definition, inputs: {}, steps, hooks: hooks() });
    const started = performance.now();
    const outcome = await runChoreo({ definition, inputs: {}, steps, hooks: hooks() });
    const perStep = (performance.now() - started) / count;
    expect(outcome.checkpoint.outputs).toEqual({ Done: String(count) });
    // Generous bound for a loaded CI machine; the target is well under 0.5 ms.
    expect(perStep).toBeLessThan(2);
  });
});
