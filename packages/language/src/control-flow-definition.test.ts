import { describe, expect, it } from 'vitest';
import { parseDefinition } from './parse-definition.ts';
import { stepLibraryForTest } from './step-library-for-test.ts';

const steps = stepLibraryForTest();

function problemsOf(steps_: unknown[], outputs: Record<string, unknown> = {}): string[] {
  const result = parseDefinition(
    { description: 'Control flow.', inputs: { List: { description: 'A JSON array.', required: true } }, outputs, steps: steps_ },
    steps,
  );
  return result.ok ? [] : result.problems;
}

const noop = (id: string, args: Record<string, unknown> = {}) => ({ id, kind: 'noop', args });

describe('control flow in definitions', () => {
  it('accepts every construct, nested', () => {
    expect(
      problemsOf(
        [
          noop('start'),
          {
            id: 'each',
            forEach: '{{inputs.List}}',
            concurrency: 4,
            steps: [
              noop('item', { value: '{{loop.item.name}} {{loop.index}} {{steps.start}}' }),
              {
                id: 'pick',
                choice: [{ when: { value: '{{steps.item.value}}', equals: 'x' }, steps: [{ id: 'early', return: { Out: '{{steps.item.value}}' } }] }],
                default: [noop('other')],
              },
            ],
          },
          {
            id: 'pages',
            repeat: {
              item: '{{inputs.List}}',
              nextItem: '{{steps.page.next}}',
              until: { any: [{ value: '{{steps.page.next}}', exists: false }, '{{steps.page.last}}'] },
              maxIterations: 50,
            },
            steps: [noop('page', { url: '{{loop.item}}' })],
          },
          {
            id: 'guard',
            try: [{ id: 'both', parallel: [[noop('left')], [noop('right')]] }],
            catch: [{ errors: ['timeout', 'error'], steps: [noop('handled', { why: '{{error.message}} {{error.type}} {{error.step}}' })] }],
            finally: [noop('cleanup', { left: '{{steps.left}}' })],
          },
          { id: 'stop', fail: 'failed after {{steps.pages}}' },
        ],
        { Out: { description: 'Out.', value: '{{steps.each}} {{steps.right}}' } },
      ),
    ).toEqual([]);
  });

  it('names the step or block meant and the path of what is wrong', () => {
    expect(
      problemsOf([
        { id: 'a', choice: [] },
        { id: 'b', forEach: '[]', concurrency: 0, steps: [{ id: 'c', kind: 'control.wait', args: { milliseconds: 'soon' } }] },
        { id: 'd', repeat: { until: 'true' }, steps: [noop('e')] },
        { id: 'f', try: [noop('g')] },
        { id: 'h', choice: [{ when: { value: 'x', equals: 'x', notEquals: 'y' }, steps: [noop('i')] }] },
        { id: 'j', kind: 'noop', forEach: '[]' },
        { id: 'k', parallel: [[noop('l')]] },
      ]),
    ).toEqual([
      'steps[0].choice: a choice needs at least one branch',
      'steps[1].concurrency: Too small: expected number to be >=1',
      'steps[2].repeat.maxIterations: Invalid input: expected number, received undefined',
      'steps[3]: a try block needs "catch", "finally" or both',
      'steps[4].choice[0].when: a comparison has exactly one of equals, notEquals, in, lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual, exists',
      'steps[5]: not a step: a step is an object with exactly one of "kind", "choice", "forEach", "repeat", "parallel", "try", "return", "fail"',
      'steps[6].parallel: parallel needs at least two branches',
    ]);
    expect(problemsOf([{ id: 'b', forEach: '[]', steps: [{ id: 'c', kind: 'control.wait', args: { milliseconds: 'soon' } }] }])).toEqual([
      expect.stringMatching(/^steps\[0\]\.steps\[0\] \(c\) args\.milliseconds: /),
    ]);
  });

  it('keeps step ids unique across the whole document', () => {
    expect(problemsOf([noop('a'), { id: 'loop', forEach: '[]', steps: [noop('a'), { id: 'loop', fail: 'x' }] }])).toEqual([
      'steps[1].steps[0]: step id "a" is already used by steps[0]',
      'steps[1].steps[1]: step id "loop" is already used by steps[1]',
    ]);
  });

  it('refuses references that could never be available where they are', () => {
    expect(
      problemsOf(
        [
          noop('early', { a: '{{loop.item}}', b: '{{error.message}}' }),
          { id: 'each', forEach: '{{steps.each}}', steps: [noop('inside', { a: '{{steps.each}}', b: '{{steps.later}}' })] },
          noop('after', { a: '{{steps.inside.x}}', b: '{{loop.index}}' }),
          { id: 'guard', try: [noop('risky', { a: '{{error.type}}' })], finally: [noop('last', { a: '{{error.step}}' })] },
          noop('later'),
          { id: 'done', return: { Missing: 'x' } },
        ],
        { Out: { description: 'Out.', value: '{{steps.inside}}' } },
      ),
    ).toEqual([
      'steps[0] (early) args.a: {{loop.item}} is only available inside the steps of a forEach or repeat',
      'steps[0] (early) args.b: {{error.message}} is only available inside the steps of a catch',
      "steps[1] (each) forEach: {{steps.each}} refers to the step itself; only earlier steps' results are available",
      'steps[1].steps[0] (inside) args.a: {{steps.each}} refers to the block "each" it is part of, whose result is only available after it',
      'steps[1].steps[0] (inside) args.b: {{steps.later}} refers to step "later", which runs later; only earlier steps\' results are available',
      'steps[2] (after) args.a: {{steps.inside.x}} refers to step "inside" inside loop "each", whose results exist only in the loop\'s iterations; after the loop, {{steps.each}} is the list of its iterations\' results',
      'steps[2] (after) args.b: {{loop.index}} is only available inside the steps of a forEach or repeat',
      'steps[3].try[0] (risky) args.a: {{error.type}} is only available inside the steps of a catch',
      'steps[3].finally[0] (last) args.a: {{error.step}} is only available inside the steps of a catch',
      'steps[5] (done) return.Missing: the Choreo declares no output "Missing"',
      'outputs.Out.value: {{steps.inside}} refers to step "inside" inside loop "each", whose results exist only in the loop\'s iterations; after the loop, {{steps.each}} is the list of its iterations\' results',
    ]);
  });

  it("lets a repeat's until and nextItem read its iteration's steps, and checks their syntax", () => {
    expect(
      problemsOf([
        { id: 'pages', repeat: { until: { value: '{{steps.page', exists: true }, nextItem: '{{steps.page.next}}', maxIterations: 5 }, steps: [noop('page')] },
      ]),
    ).toEqual(['steps[0] (pages) repeat.until.value: unclosed "{{" at position 0 in "{{steps.page"']);
  });
});
