import { describe, expect, it } from 'vitest';
import { createSandbox, DEFAULT_CODE_LIMITS } from '@ces/sandbox';
import { createStepLibrary } from '@ces/steps';
import { type ChoreoDefinition, parseDefinition } from '@ces/language';
import { runChoreo } from './run-choreo.ts';
import type { Checkpoint, EngineHooks } from './run-choreo.ts';

/** Expressions and code steps as the engine runs them: arguments, outputs, checkpoints, failures. */

const steps = createStepLibrary({
  http: { allowPrivateNetworks: true, timeoutMs: 1000, maxResponseBytes: 1024 },
  sandbox: createSandbox({ code: { ...DEFAULT_CODE_LIMITS, timeLimitMs: 300 } }),
});

function define(raw: Record<string, unknown>): ChoreoDefinition {
  const result = parseDefinition({ description: 'A test Choreo.', ...raw }, steps);
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.definition;
}

function recording(): { hooks: EngineHooks; checkpoints: Checkpoint[] } {
  const checkpoints: Checkpoint[] = [];
  return {
    checkpoints,
    hooks: {
      beforeStep: () => undefined,
      afterStep: async (checkpoint) => {
        checkpoints.push(checkpoint);
        return undefined;
      },
      afterProgress: async () => undefined,
    },
  };
}

const output = (value: string) => ({ description: 'An output.', value });

describe('expressions in a run', () => {
  const definition = define({
    inputs: { Count: { description: 'A number.', required: true } },
    outputs: {
      Doubled: output('{% steps.double.n %}'),
      Sum: output('{% $sum(steps.double.list) + steps.add.n %}'),
      Kind: output('{% $type(steps.double.list) %}'),
    },
    steps: [
      { id: 'double', kind: 'noop', args: { n: '{% $number(inputs.Count) * 2 %}', list: '{% [1..$number(inputs.Count)] %}' } },
      { id: 'add', kind: 'noop', args: { n: '{% steps.double.n + 1 %}' } },
    ],
  });

  it('computes arguments as JSON values and outputs as text, as the steps complete', async () => {
    const { hooks, checkpoints } = recording();
    const outcome = await runChoreo({ definition, inputs: { Count: '3' }, steps, hooks });
    expect(outcome.kind).toBe('completed');
    expect(outcome.checkpoint.results).toEqual({ double: { n: 6, list: [1, 2, 3] }, add: { n: 7 } });
    // After the first step, the output that needs the second is absent.
    expect(checkpoints.map((checkpoint) => checkpoint.outputs)).toEqual([
      { Doubled: '6', Kind: 'array' },
      { Doubled: '6', Sum: '13', Kind: 'array' },
    ]);
  });

  it('resumes from a checkpoint with the same values', async () => {
    const first = await runChoreo({ definition, inputs: { Count: '2' }, steps, hooks: recording().hooks });
    const resumed = await runChoreo({
      definition,
      inputs: { Count: '2' },
      steps,
      hooks: recording().hooks,
      resumeFrom: { nextStep: 1, results: { double: { n: 4, list: [1, 2] } } },
    });
    expect(resumed.checkpoint).toEqual(first.checkpoint);
  });

  it('fails the run naming the step and the expression when an argument fails', async () => {
    const outcome = await runChoreo({ definition, inputs: { Count: 'three' }, steps, hooks: recording().hooks });
    expect(outcome).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/^double: expression \{% \$number\(inputs\.Count\) \* 2 %\} failed: D3030: Unable to cast value to a number/),
      checkpoint: { nextStep: 0 },
    });
  });

  it('fails the run naming the output and the expression when an output fails, keeping the last checkpoint', async () => {
    const failing = define({
      outputs: { Bad: output('{% steps.first.text + 1 %}') },
      steps: [
        { id: 'first', kind: 'text.template', args: { text: 'one' } },
        { id: 'second', kind: 'noop' },
      ],
    });
    const outcome = await runChoreo({ definition: failing, inputs: {}, steps, hooks: recording().hooks });
    expect(outcome).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/^first: outputs\.Bad: expression \{% steps\.first\.text \+ 1 %\} failed: T2001/),
      checkpoint: { nextStep: 0 },
    });
  });

  it('fails a step whose argument expression selects nothing', async () => {
    const missing = define({
      steps: [
        { id: 'first', kind: 'noop', args: { value: 1 } },
        { id: 'second', kind: 'noop', args: { value: '{% steps.first.missing %}' } },
      ],
    });
    const outcome = await runChoreo({ definition: missing, inputs: {}, steps, hooks: recording().hooks });
    expect(outcome).toMatchObject({ kind: 'failed', error: expect.stringMatching(/^second: expression \{% steps\.first\.missing %\} selects nothing/) });
  });
});

describe('a code step in a run', () => {
  const definition = define({
    inputs: { Values: { description: 'A JSON array of numbers.', required: true }, Code: { description: 'Extra code.', default: '' } },
    outputs: { Max: output('{{steps.code.max}}'), Count: output('{% $string(steps.code.count) %}') },
    steps: [
      { id: 'parse', kind: 'noop', args: { values: '{% $eval(inputs.Values) %}' } },
      {
        id: 'code',
        kind: 'code.javascript',
        args: {
          input: '{% {"values": steps.parse.values, "extra": inputs.Code} %}',
          code: 'if (input.extra === "loop") for (;;) {}\nreturn { max: Math.max(...input.values), count: input.values.length };',
        },
      },
    ],
  });

  it('gives its result to outputs like any step, and it is checkpointed', async () => {
    const { hooks, checkpoints } = recording();
    const outcome = await runChoreo({ definition, inputs: { Values: '[3, 9, 4]', Code: '' }, steps, hooks });
    expect(outcome.kind).toBe('completed');
    expect(outcome.checkpoint.outputs).toEqual({ Max: '9', Count: '3' });
    expect(checkpoints.at(-1)?.results.code).toEqual({ max: 9, count: 3 });
  });

  it('can be given everything a run has so far with {% $ %}', async () => {
    const everything = define({
      inputs: { Name: { description: 'A name.', required: true } },
      outputs: { Greeting: output('{{steps.greet.text}}') },
      steps: [
        { id: 'count', kind: 'text.length', args: { text: '{{inputs.Name}}' } },
        {
          id: 'greet',
          kind: 'code.javascript',
          args: {
            input: '{% $ %}',
            // The script's own template literal: its placeholders are filled in the sandbox, not here.
            code: `return { text: \`\${input.inputs.Name} has \${input.steps.count.characters} letters (after \${input.run.completedSteps} step)\` };`,
          },
        },
      ],
    });
    const outcome = await runChoreo({ definition: everything, inputs: { Name: 'Ada' }, steps, hooks: recording().hooks });
    expect(outcome.checkpoint.outputs).toEqual({ Greeting: 'Ada has 3 letters (after 1 step)' });
  });

  it('fails only the step that loops forever; the next run is served', async () => {
    const looping = await runChoreo({ definition, inputs: { Values: '[1]', Code: 'loop' }, steps, hooks: recording().hooks });
    expect(looping).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/^code: the code (failed: ran past its time limit of 300 ms|ran longer than 550 ms)$/),
    });
    expect(looping.checkpoint.results).toEqual({ parse: { values: [1] } });
    const next = await runChoreo({ definition, inputs: { Values: '[5, 2]', Code: '' }, steps, hooks: recording().hooks });
    expect(next.checkpoint.outputs).toEqual({ Max: '5', Count: '2' });
  });
});
