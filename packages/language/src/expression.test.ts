import { describe, expect, it } from 'vitest';
import { compileDefinition, evaluateOutputs } from './compiled-definition.ts';
import { compileExpression, DEFAULT_EXPRESSION_LIMITS, ExpressionError, ExpressionSyntaxError, isExpression } from './expression.ts';
import { parseDefinition } from './parse-definition.ts';
import { stepLibraryForTest } from './step-library-for-test.ts';
import type { TemplateContext } from './template.ts';
import { compileValue, evaluateValue, MissingTemplateValueError } from './templated-value.ts';

const context: TemplateContext = {
  inputs: { Count: '3', Name: 'Ada', Orders: '[{"id":"a","amount":5},{"id":"b","amount":12}]' },
  results: { fetch: { status: 200, items: [{ price: 2 }, { price: 5 }] }, 'split-lines': { count: 2 } },
  completedSteps: 2,
};

const evaluate = (text: string) => compileExpression(text).evaluate(context);

describe('isExpression', () => {
  it.each([
    ['{% 1 %}', true],
    ['{%1%}', true],
    ['{% 1 %} ', false],
    [' {% 1 %}', false],
    ['{{inputs.Name}}', false],
    ['100%}', false],
    ['{%}', false],
  ])('%j → %j', (text, expected) => expect(isExpression(text)).toBe(expected));
});

describe('compileExpression', () => {
  it.each([
    ['{% $number(inputs.Count) + 1 %}', 4],
    ['{% inputs.Name & "!" %}', 'Ada!'],
    ['{% $sum(steps.fetch.items.price) %}', 7],
    ['{% steps.`split-lines`.count %}', 2],
    ['{% run.completedSteps %}', 2],
    ['{% $eval(inputs.Orders)[amount > 10].id %}', 'b'],
    ['{% $eval(inputs.Orders).amount %}', [5, 12]],
    ['{% {"total": $sum($eval(inputs.Orders).amount)} %}', { total: 17 }],
    ['{% $number(inputs.Count) > 2 ? "big" : "small" %}', 'big'],
    ['{% ( $f := function($n) { $n <= 1 ? 1 : $n * $f($n - 1) }; $f(10) ) %}', 3628800],
    ['{% $pad("7", -3, "0") %}', '007'],
    ['{% $pad("ab", 5, "xy") %}', 'abxyx'],
  ])('evaluates %s', async (text, expected) => {
    expect(await evaluate(text)).toEqual(expected);
  });

  it('gives undefined when the expression selects nothing', async () => {
    expect(await evaluate('{% steps.later.value %}')).toBeUndefined();
  });

  it('returns plain data: no sequence markers, a fresh copy', async () => {
    const value = await evaluate('{% steps.fetch.items %}');
    expect(value).toEqual([{ price: 2 }, { price: 5 }]);
    expect(value).not.toBe(context.results.fetch);
    expect(Object.keys(value as object)).toEqual(['0', '1']);
  });

  it.each([
    ['{% 1 + %}', /is not valid JSONata: S0207: Unexpected end of expression/],
    ['{% inputs.( %}', /is not valid JSONata/],
    ['{%   %}', /is empty/],
    ['{% $match(inputs.Name, /(a+)+$/) %}', /uses a regular expression/],
  ])('refuses %s when compiled', (text, message) => {
    expect(() => compileExpression(text)).toThrow(ExpressionSyntaxError);
    expect(() => compileExpression(text)).toThrow(message);
  });

  it('names the expression and the reason when it fails', async () => {
    await expect(evaluate('{% inputs.Count + 1 %}')).rejects.toThrow(
      /^expression \{% inputs\.Count \+ 1 %\} failed: T2001: The left side of the "\+" operator must evaluate to a number/,
    );
  });

  it('stops an infinite recursion at the depth limit', async () => {
    await expect(evaluate('{% ( $f := function($x){ 1 + $f($x) }; $f(1) ) %}')).rejects.toThrow(/D1011: Stack overflow/);
  });

  it('stops an endless tail call at the time limit', async () => {
    const limits = { ...DEFAULT_EXPRESSION_LIMITS, timeoutMs: 100 };
    const failure = compileExpression('{% ( $f := function($x){$f($x)}; $f(1) ) %}').evaluate(context, limits);
    await expect(failure).rejects.toThrow(ExpressionError);
    await expect(failure).rejects.toThrow(/D1012: Evaluation timeout after 100 milliseconds/);
  });

  it('stops an evaluation that fills the heap', async () => {
    const limits = { ...DEFAULT_EXPRESSION_LIMITS, timeoutMs: 30_000, maxHeapGrowthBytes: 64 * 1024 * 1024 };
    const bomb = compileExpression('{% $map([1..1000], function($i){ [[1..100000]] }) %}').evaluate(context, limits);
    await expect(bomb).rejects.toThrow(/used more than 64 MiB of memory/);
  });

  it('evaluates one compiled expression many times, at once too, each evaluation with its own bindings and guards', async () => {
    const expression = compileExpression('{% ( $double := function($x){ $x * 2 }; $double(loop.item) ) %}');
    const at = (item: number) => expression.evaluate({ ...context, loop: { item, index: item } });
    expect(await Promise.all(Array.from({ length: 50 }, (_, item) => at(item)))).toEqual(Array.from({ length: 50 }, (_, item) => item * 2));
    // The time limit counts from each evaluation's start, not from the first.
    const limits = { ...DEFAULT_EXPRESSION_LIMITS, timeoutMs: 100 };
    const endless = compileExpression('{% ( $f := function($x){$f($x)}; $f(1) ) %}');
    await expect(endless.evaluate(context, limits)).rejects.toThrow(/D1012/);
    const quick = compileExpression('{% $sum([1..1000]) %}');
    const started = performance.now();
    while (performance.now() - started < 150) expect(await quick.evaluate(context, limits)).toBe(500500);
  });

  it('refuses a result longer than the limit', async () => {
    const limits = { ...DEFAULT_EXPRESSION_LIMITS, maxResultChars: 1000 };
    await expect(compileExpression('{% [1..1000] %}').evaluate(context, limits)).rejects.toThrow(/gives a value longer than 1000 characters of JSON/);
    await expect(compileExpression('{% $pad("", 999) %}').evaluate(context, limits)).rejects.toThrow(/longer than 1000/);
  });

  it('refuses sequences past the limit and huge padding', async () => {
    await expect(evaluate('{% [1..5000000] %}')).rejects.toThrow(/D2015/);
    await expect(evaluate('{% $pad("", 100000000) %}')).rejects.toThrow(/\$pad\(\) width 100000000 is over the limit/);
  });

  it('has no clock, no randomness and no regular expressions, even through $eval', async () => {
    await expect(evaluate('{% $now() %}')).rejects.toThrow(/\$now\(\) is not available/);
    await expect(evaluate('{% $millis() %}')).rejects.toThrow(/\$millis\(\) is not available/);
    await expect(evaluate('{% $random() %}')).rejects.toThrow(/\$random\(\) is not available/);
    await expect(evaluate('{% $eval("$contains(\\"aaa\\", /a+/)") %}')).rejects.toThrow(/regular expressions are not available/);
  });

  it('refuses a function as a value', async () => {
    await expect(evaluate('{% function($x){ $x } %}')).rejects.toThrow(/gives a function, not a value/);
  });
});

describe('expressions in values', () => {
  it('evaluates expressions beside templates and constants, at any depth', async () => {
    const compiled = compileValue({ n: '{% $number(inputs.Count) * 2 %}', text: 'Hi {{inputs.Name}}', list: ['{% steps.fetch.status %}', 1], flag: true });
    expect(await evaluateValue(compiled, context)).toEqual({ n: 6, text: 'Hi Ada', list: [200, 1], flag: true });
  });

  it('fails an argument whose expression selects nothing, naming the expression', async () => {
    await expect(evaluateValue(compileValue({ a: '{% steps.nothing %}' }), context)).rejects.toThrow(/expression \{% steps\.nothing %\} selects nothing/);
    await expect(evaluateValue(compileValue({ a: '{{steps.nothing}}' }), context)).rejects.toThrow(MissingTemplateValueError);
  });
});

describe('expressions in outputs', () => {
  const steps = stepLibraryForTest();
  const definition = (outputs: Record<string, string>) => {
    const parsed = parseDefinition(
      {
        description: 'Outputs.',
        inputs: { Count: { description: 'A number.' } },
        outputs: Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, { description: 'An output.', value }])),
        steps: [
          { id: 'fetch', kind: 'noop' },
          { id: 'later', kind: 'noop' },
        ],
      },
      steps,
    );
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    return parsed.definition;
  };

  it('writes values as text and leaves out what selects nothing', async () => {
    const outputs = await evaluateOutputs(
      definition({
        Double: '{% $number(inputs.Count) * 2 %}',
        Items: '{% steps.fetch.items %}',
        Later: '{% steps.later.x %}',
        Plain: 'text',
        Template: '{{inputs.Count}}',
      }),
      context,
    );
    expect(outputs).toEqual({ Double: '6', Items: '[{"price":2},{"price":5}]', Plain: 'text', Template: '3' });
  });

  it('names the output when its expression fails', async () => {
    await expect(evaluateOutputs(definition({ Bad: '{% inputs.Count + 1 %}' }), context)).rejects.toThrow(
      /^outputs\.Bad: expression \{% inputs\.Count \+ 1 %\} failed: T2001/,
    );
  });

  it('is compiled once per definition', () => {
    const parsed = definition({ A: '{% 1 %}' });
    expect(compileDefinition(parsed)).toBe(compileDefinition(parsed));
  });
});

describe('validation of expressions when the catalogue loads', () => {
  const steps = stepLibraryForTest();
  const problemsOf = (raw: unknown) => {
    const result = parseDefinition(raw, steps);
    return result.ok ? [] : result.problems;
  };

  it('names the step and the expression of a parse error', () => {
    expect(
      problemsOf({
        description: 'Bad.',
        outputs: { Out: { description: 'Out.', value: '{% $sum( %}' } },
        steps: [{ id: 'wait', kind: 'control.wait', args: { milliseconds: '{% 1 + %}' } }],
      }),
    ).toEqual([
      expect.stringMatching(/^steps\[0\] \(wait\) args: expression \{% 1 \+ %\} is not valid JSONata: S0207/),
      expect.stringMatching(/^outputs\.Out\.value: expression \{% \$sum\( %\} is not valid JSONata/),
    ]);
  });

  it('refuses references to undeclared inputs, unknown steps, the step itself and later steps', () => {
    expect(
      problemsOf({
        description: 'Bad references.',
        inputs: { Count: { description: 'A number.' } },
        outputs: { Out: { description: 'Out.', value: '{% steps.nowhere.x & inputs.Count %}' } },
        steps: [
          { id: 'first', kind: 'noop', args: { a: '{% $number(inputs.Cout) %}', b: ['{% steps.first.x %}'], c: '{% {"later": steps.second.y} %}' } },
          { id: 'second', kind: 'noop', args: { ok: '{% $map(steps.first.items, function($item) { $item & inputs.Count }) %}' } },
        ],
      }),
    ).toEqual([
      'steps[0] (first) args.a: expression {% $number(inputs.Cout) %} reads inputs.Cout, which is not declared',
      "steps[0] (first) args.b[0]: expression {% steps.first.x %} reads the step itself; only earlier steps' results are available",
      'steps[0] (first) args.c: expression {% {"later": steps.second.y} %} reads step "second", which runs later; only earlier steps\' results are available',
      'outputs.Out.value: expression {% steps.nowhere.x & inputs.Count %} reads steps.nowhere, an unknown step',
    ]);
  });

  it('does not take fields of the data at hand for references', () => {
    expect(
      problemsOf({
        description: 'Fields named inputs and steps.',
        steps: [
          { id: 'fetch', kind: 'noop' },
          { id: 'use', kind: 'noop', args: { a: '{% steps.fetch.items[inputs.x = 1].steps.other %}', b: '{% steps.fetch.(inputs.y) %}' } },
        ],
      }),
    ).toEqual([]);
  });

  it('leaves computed arguments to be validated when they are known', () => {
    expect(problemsOf({ description: 'Ok.', steps: [{ id: 'wait', kind: 'control.wait', args: { milliseconds: '{% 5 * 2 %}' } }] })).toEqual([]);
  });
});
