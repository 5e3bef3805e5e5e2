import { describe, expect, it } from 'vitest';
import { locateProblem, toPointer } from './document-problem.ts';

describe('locateProblem', () => {
  it('keeps a problem it cannot place whole, at the document', () => {
    expect(locateProblem('something odd happened')).toEqual({ pointer: '', message: 'something odd happened' });
    expect(locateProblem('steps[2].choice[0].steps[1] (inner) choice[0].when.all[1]: nope')).toEqual({
      pointer: '/steps/2/choice/0/steps/1/choice/0/when/all/1',
      message: 'nope',
    });
  });

  it('places a problem of a step whose id the schema refused', () => {
    expect(locateProblem('steps[1] (not an id!): unknown step kind "x"')).toEqual({ pointer: '/steps/1', message: 'unknown step kind "x"' });
  });
});

describe('toPointer', () => {
  it('escapes "~" and "/" in a segment', () => {
    expect(toPointer(['inputs', 'a/b~c', 0])).toBe('/inputs/a~1b~0c/0');
  });
});
