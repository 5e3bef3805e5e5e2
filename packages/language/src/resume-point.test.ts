import { describe, expect, it } from 'vitest';
import type { NodeDefinition } from './definition.ts';
import { resumePoint } from './resume-point.ts';

const definition = {
  steps: [
    { id: 'first' },
    { id: 'pick', choice: [{ when: {}, steps: [{ id: 'inner' }] }], default: [] },
    { id: 'pages', forEach: '[]', steps: [{ id: 'fetch' }] },
    { id: 'pause' },
    { id: 'last' },
  ] as unknown as NodeDefinition[],
};

describe('resumePoint', () => {
  it('resumes at the first top-level step without a result, with the results before it and the entries of that step', () => {
    const log: [string, unknown][] = [
      ['first', 1],
      ['inner', 2],
      ['pick', 2],
      ['pages[0]', 'p0'],
      ['pages[1].fetch', 'half'],
      ['pages@', 5],
    ];
    expect(resumePoint(definition, log)).toEqual({
      nextStep: 2,
      results: { first: 1, inner: 2, pick: 2 },
      progress: new Map<string, unknown>([
        ['pages[0]', 'p0'],
        ['pages[1].fetch', 'half'],
        ['pages@', 5],
      ]),
    });
  });

  it('leaves out what a completed block’s result stands for, and a step inside the block it resumes in', () => {
    const log: [string, unknown][] = [
      ['first', 1],
      ['inner', 2],
      ['pick', 2],
      ['pages[0]', 'p0'],
      ['pages', ['p0']],
      ['pause@', 9],
    ];
    expect(resumePoint(definition, log)).toEqual({
      nextStep: 3,
      results: { first: 1, inner: 2, pick: 2, pages: ['p0'] },
      progress: new Map([['pause@', 9]]),
    });
    const inChoice: [string, unknown][] = [
      ['first', 1],
      ['inner', 2],
    ];
    expect(resumePoint(definition, inChoice)).toEqual({ nextStep: 1, results: { first: 1 }, progress: new Map([['inner', 2]]) });
  });

  it('reads the results map of an earlier version first, the log over it', () => {
    expect(resumePoint(definition, [['pick', 3]], { first: 1, pick: 2 })).toEqual({ nextStep: 2, results: { first: 1, pick: 3 }, progress: new Map() });
    expect(resumePoint(definition, [])).toEqual({ nextStep: 0, results: {}, progress: new Map() });
  });
});
