import { describe, expect, it } from 'vitest';
import { parseDefinition } from './parse-definition.ts';
import { stepLibraryForTest } from './step-library-for-test.ts';

const steps = stepLibraryForTest();

const valid = {
  description: 'Encodes then hashes.',
  timeLimitSeconds: 60,
  inputs: { Text: { description: 'Text.', type: 'STRING_VARIABLE', required: true }, Algorithm: { description: 'Algorithm.', default: 'sha256' } },
  outputs: { Hash: { description: 'The hash.', type: 'STRING_VARIABLE', value: '{{steps.hash.digest}}' } },
  steps: [
    { id: 'encode', kind: 'encoding.base64-encode', args: { text: '{{inputs.Text}}' }, timeoutMs: 1000, retry: { attempts: 2, backoffMs: 10 } },
    { id: 'hash', kind: 'hashing.hash', args: { text: '{{steps.encode.text}}', algorithm: '{{inputs.Algorithm}}' } },
  ],
};

function problemsOf(raw: unknown): string[] {
  const result = parseDefinition(raw, steps);
  return result.ok ? [] : result.problems;
}

describe('parseDefinition', () => {
  it('accepts a valid definition and fills in defaults', () => {
    const result = parseDefinition(valid, steps);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.definition.inputs.Algorithm).toEqual({ description: 'Algorithm.', type: 'STRING_VARIABLE', required: false, default: 'sha256' });
    expect((result.definition.steps[1] as { args?: unknown } | undefined)?.args).toEqual({ text: '{{steps.encode.text}}', algorithm: '{{inputs.Algorithm}}' });
  });

  it('reports structural problems with their location', () => {
    expect(problemsOf({ description: '', steps: [], extra: 1 })).toEqual(
      expect.arrayContaining([
        expect.stringContaining('description: a description is required'),
        expect.stringContaining('steps: a Choreo needs at least one step'),
        expect.stringContaining('extra'),
      ]),
    );
    // The schema's problem, and what the checks after it still find: Algorithm is no longer declared.
    expect(problemsOf({ ...valid, inputs: { Text: { description: 'x', type: 'NUMBER' } } })).toEqual([
      expect.stringMatching(/^inputs\.Text\.type: /),
      'steps[1] (hash) args.algorithm: {{inputs.Algorithm}} refers to an input that is not declared',
    ]);
    expect(problemsOf('not an object')).toHaveLength(1);
  });

  it('reports unknown step kinds, duplicate ids and bad references', () => {
    const problems = problemsOf({
      ...valid,
      outputs: { Out: { description: 'x', value: '{{steps.nowhere.x}}' } },
      steps: [
        { id: 'a', kind: 'no.such-kind' },
        { id: 'a', kind: 'noop' },
        { id: 'b', kind: 'text.template', args: { text: '{{steps.c.text}} {{inputs.Undeclared}} {{steps.b.text}}' } },
        { id: 'c', kind: 'text.template', args: { text: '{{inputs.Text' } },
      ],
    });
    expect(problems).toEqual([
      'steps[1]: step id "a" is already used by steps[0]',
      'steps[0] (a): unknown step kind "no.such-kind"',
      `steps[2] (b) args.text: {{steps.c.text}} refers to step "c", which runs later; only earlier steps' results are available`,
      'steps[2] (b) args.text: {{inputs.Undeclared}} refers to an input that is not declared',
      `steps[2] (b) args.text: {{steps.b.text}} refers to the step itself; only earlier steps' results are available`,
      'steps[3] (c) args: unclosed "{{" at position 0 in "{{inputs.Text"',
      'outputs.Out.value: {{steps.nowhere.x}} refers to an unknown step "nowhere"',
    ]);
  });

  it("checks literal arguments against the kind's schema, leaving templated ones for run time", () => {
    const problems = problemsOf({
      ...valid,
      steps: [
        { id: 'w', kind: 'control.wait', args: { milliseconds: 'soon' } },
        { id: 'x', kind: 'control.wait', args: { milliseconds: '{{inputs.Text}}' } },
        { id: 'h', kind: 'hashing.hash', args: { text: 'x', algorithm: 'crc32', extra: true } },
        { id: 't', kind: 'text.template', args: {} },
      ],
      outputs: {},
    });
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^steps\[0\] \(w\) args\.milliseconds: /);
    expect(problems[1]).toMatch(/^steps\[2\] \(h\) args\.algorithm: /);
    expect(problems[2]).toMatch(/^steps\[2\] \(h\) args: .*extra/);
    expect(problems[3]).toMatch(/^steps\[3\] \(t\) args\.text: /);
  });

  it('refuses an input both required and defaulted, and reserved names', () => {
    expect(problemsOf({ ...valid, inputs: { ...valid.inputs, Both: { description: 'x', required: true, default: 'y' } } })).toEqual([
      'inputs.Both: an input is either required or has a default, not both',
    ]);
    expect(problemsOf({ ...valid, steps: [{ id: '__proto__', kind: 'noop' }], outputs: {} })).toEqual([expect.stringContaining('reserved')]);
  });

  it('reports every problem of a document at once, the schema refusing some of it, each at its pointer', () => {
    const result = parseDefinition(
      {
        inputs: { Text: { description: 'Text.', required: true, default: 'x' }, Bad: { description: 'x', type: 'NUMBER' } },
        outputs: { Out: { description: 'Out.', value: '{{inputs.Missing}}' } },
        steps: [
          { id: 'a', kind: 'no.such-kind', args: { text: '{{inputs.Text' } },
          { id: 'b', kind: 'teleport', retry: { attempts: 0 } },
          { id: 'c', kind: 'hashing.hash', args: { text: '{{inputs.Bad}}', algorithm: 'crc32' } },
        ],
      },
      steps,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.located).toEqual([
      { pointer: '/description', message: expect.any(String) },
      { pointer: '/inputs/Bad/type', message: expect.any(String) },
      { pointer: '/steps/1/retry/attempts', message: expect.any(String) },
      { pointer: '/inputs/Text', message: 'an input is either required or has a default, not both' },
      { pointer: '/steps/0/args', message: expect.stringContaining('{{inputs.Text') },
      { pointer: '/steps/0', message: 'unknown step kind "no.such-kind"' },
      { pointer: '/steps/1', message: 'unknown step kind "teleport"' },
      { pointer: '/steps/2/args/algorithm', message: expect.any(String) },
      { pointer: '/outputs/Out/value', message: '{{inputs.Missing}} refers to an input that is not declared' },
    ]);
    expect(result.problems).toHaveLength(result.located.length);
    expect(result.problems[5]).toBe('steps[0] (a): unknown step kind "no.such-kind"');
  });

  it('reports no more than the schema of what it refused: a reference may be to a step inside a refused block', () => {
    const result = parseDefinition(
      {
        description: 'x',
        inputs: 'not an object',
        steps: [
          { id: 'each', forEach: '{{inputs.Items}}', steps: [{ id: 'inner', kind: 'noop', retry: {} }] },
          { id: 'after', kind: 'noop', args: { seen: '{{steps.inner.x}} {{inputs.Anything}}' } },
        ],
      },
      steps,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.located.map((problem) => problem.pointer)).toEqual(['/inputs', '/steps/0/steps/0/retry/attempts']);
  });

  it('answers a document without an object the schema alone', () => {
    const result = parseDefinition(['not', 'a', 'definition'], steps);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.located).toEqual([{ pointer: '', message: expect.any(String) }]);
  });
});
