import { describe, expect, it } from 'vitest';
import { compileTemplate, TemplateSyntaxError } from './template.ts';
import type { TemplateContext } from './template.ts';

const context: TemplateContext = {
  inputs: { Name: 'Ada', Empty: '' },
  results: { fetch: { status: 200, body: 'hi', headers: { 'content-type': 'text/plain' }, list: ['a', { b: 1 }] }, flag: null },
  completedSteps: 2,
};

describe('compileTemplate', () => {
  it.each([
    ['plain text', 'plain text'],
    ['Hello, {{inputs.Name}}!', 'Hello, Ada!'],
    ['{{ inputs.Name }}', 'Ada'],
    ['[{{inputs.Missing}}]', '[]'],
    ['{{steps.fetch.status}}', '200'],
    ['{{steps.fetch.headers.content-type}}', 'text/plain'],
    ['{{steps.fetch.list.0}}/{{steps.fetch.list.1}}', 'a/{"b":1}'],
    ['{{steps.fetch.headers}}', '{"content-type":"text/plain"}'],
    ['{{steps.flag}}', 'null'],
    ['{{run.completedSteps}} done', '2 done'],
    ['{{"{{"}}literal}}', '{{literal}}'],
    ['{{ "a}}b" }}', 'a}}b'],
    ['}} alone', '}} alone'],
  ])('renders %j as %j', (source, expected) => {
    expect(compileTemplate(source).render(context)).toBe(expected);
  });

  it.each([
    '{{steps.later.body}}',
    'x {{steps.fetch.nothing}}',
    '{{steps.fetch.list.5}}',
    '{{steps.fetch.constructor}}',
    '{{steps.fetch.__proto__}}',
    '{{steps.fetch.body.length}}',
  ])('leaves %j unavailable', (source) => {
    expect(compileTemplate(source).render(context)).toBeUndefined();
  });

  it.each([
    '{{inputs.Name',
    '{{}}',
    '{{inputs}}',
    '{{inputs.a.b}}',
    '{{run.other}}',
    '{{process.env.HOME}}',
    '{{inputs.Name + 1}}',
    '{{"unterminated}}',
    '{{steps..x}}',
  ])('refuses %j', (source) => {
    expect(() => compileTemplate(source)).toThrow(TemplateSyntaxError);
  });

  it('lists its references', () => {
    expect(compileTemplate('{{inputs.A}}-{{steps.s.x.y}}-{{run.completedSteps}}').references).toEqual([
      { type: 'input', name: 'A', text: 'inputs.A' },
      { type: 'step', stepId: 's', path: ['x', 'y'], text: 'steps.s.x.y' },
      { type: 'run', field: 'completedSteps', text: 'run.completedSteps' },
    ]);
  });
});
