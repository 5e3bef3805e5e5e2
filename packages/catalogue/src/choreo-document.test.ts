import { describe, expect, it } from 'vitest';
import { checkChoreoDocument, DEFAULT_CHOREO_DOCUMENT_LIMITS, isValidChoreoId } from './choreo-document.ts';
import { createStepLibrary } from '@ces/steps';

const steps = createStepLibrary();
const valid = {
  description: 'Encodes a text.',
  inputs: { Text: { description: 'The text.', required: true } },
  outputs: { Encoded: { description: 'Its Base64.', value: '{{steps.encode.text}}' } },
  steps: [{ id: 'encode', kind: 'encoding.base64-encode', args: { text: '{{inputs.Text}}' } }],
};

function problemsOf(document: unknown, limits = DEFAULT_CHOREO_DOCUMENT_LIMITS) {
  const result = checkChoreoDocument('/Mine/Doc', typeof document === 'string' ? document : JSON.stringify(document), steps, limits);
  return result.ok ? [] : result.problems;
}

describe('checkChoreoDocument', () => {
  it('answers the entry of a valid document, as the catalogue would', () => {
    const result = checkChoreoDocument('/Mine/Doc', JSON.stringify(valid), steps, DEFAULT_CHOREO_DOCUMENT_LIMITS);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.entry).toMatchObject({ id: '/Mine/Doc', valid: true, instant: true, description: 'Encodes a text.' });
    expect(result.entry.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('places every kind of problem with a JSON pointer', () => {
    expect(problemsOf('{"description": ')).toEqual([{ pointer: '', message: expect.stringContaining('not valid JSON') }]);
    expect(problemsOf({ ...valid, description: '' })).toEqual([{ pointer: '/description', message: 'a description is required' }]);
    expect(problemsOf({ ...valid, extra: 1 })).toEqual([{ pointer: '', message: expect.stringContaining('extra') }]);
    expect(problemsOf({ ...valid, steps: [{ ...valid.steps[0], kind: 'no.such-kind' }] })).toEqual([
      { pointer: '/steps/0', message: 'unknown step kind "no.such-kind"' },
    ]);
    expect(problemsOf({ ...valid, steps: [{ ...valid.steps[0], args: { text: '{{inputs.Missing}}' } }] })).toEqual([
      { pointer: '/steps/0/args/text', message: '{{inputs.Missing}} refers to an input that is not declared' },
    ]);
    expect(problemsOf({ ...valid, steps: [{ ...valid.steps[0], args: { text: 7 } }] })).toEqual([
      { pointer: '/steps/0/args/text', message: expect.any(String) },
    ]);
    expect(problemsOf({ ...valid, outputs: { Encoded: { description: 'x', value: '{{steps.later.text}}' } } })).toEqual([
      { pointer: '/outputs/Encoded/value', message: '{{steps.later.text}} refers to an unknown step "later"' },
    ]);
    expect(problemsOf({ ...valid, steps: [valid.steps[0], valid.steps[0]] })).toEqual([
      { pointer: '/steps/1', message: 'step id "encode" is already used by steps[0]' },
    ]);
    expect(problemsOf({ ...valid, inputs: { Text: { description: 'x', required: true, default: 'y' } } })).toEqual([
      { pointer: '/inputs/Text', message: 'an input is either required or has a default, not both' },
    ]);
  });

  it('answers every problem of a document at once, each at its pointer', () => {
    const { description: _, ...undescribed } = valid;
    expect(problemsOf({ ...undescribed, steps: [{ ...valid.steps[0], kind: 'no.such-kind' }] })).toEqual([
      { pointer: '/description', message: expect.any(String) },
      { pointer: '/steps/0', message: 'unknown step kind "no.such-kind"' },
    ]);
    expect(
      problemsOf({
        ...valid,
        description: '',
        steps: [valid.steps[0], { id: 'hash', kind: 'hashing.hash', args: { text: '{{inputs.Nope}}', algorithm: 'crc32' }, timeoutMs: -1 }],
      }),
    ).toEqual([
      { pointer: '/description', message: 'a description is required' },
      { pointer: '/steps/1/timeoutMs', message: expect.any(String) },
    ]);
    expect(
      problemsOf({
        ...valid,
        description: '',
        steps: [valid.steps[0], { id: 'hash', kind: 'hashing.hash', args: { text: '{{inputs.Nope}}', algorithm: 'crc32' } }],
      }),
    ).toEqual([
      { pointer: '/description', message: 'a description is required' },
      { pointer: '/steps/1/args/text', message: '{{inputs.Nope}} refers to an input that is not declared' },
      { pointer: '/steps/1/args/algorithm', message: expect.any(String) },
    ]);
  });

  it('judges control flow as the catalogue does, with pointers into its blocks', () => {
    const looping = {
      description: 'Encodes each item.',
      inputs: { Items: { description: 'A JSON array.', required: true } },
      steps: [
        {
          id: 'each',
          forEach: '{{inputs.Items}}',
          steps: [
            { id: 'encode', kind: 'encoding.base64-encode', args: { text: '{{loop.item}}' } },
            { id: 'check', choice: [{ when: 'true', steps: [{ id: 'inner', kind: 'noop', args: { seen: '{{steps.encode.text}}' } }] }] },
          ],
        },
      ],
    };
    expect(checkChoreoDocument('/Mine/Loop', JSON.stringify(looping), steps, DEFAULT_CHOREO_DOCUMENT_LIMITS).ok).toBe(true);
    const broken = structuredClone(looping);
    broken.steps[0]?.steps[1]?.choice?.[0]?.steps.push({ id: 'bad', kind: 'teleport', args: { seen: 'x' } });
    const outside = { ...looping, outputs: { Item: { description: 'x', value: '{{loop.item}}' } } };
    expect(problemsOf(broken)).toEqual([{ pointer: '/steps/0/steps/1/choice/0/steps/1', message: 'unknown step kind "teleport"' }]);
    expect(problemsOf(outside)).toEqual([{ pointer: '/outputs/Item/value', message: expect.stringContaining('only available inside the steps of a forEach') }]);
    // Blocks count with steps towards the limit.
    expect(problemsOf(looping, { ...DEFAULT_CHOREO_DOCUMENT_LIMITS, maxSteps: 3 })).toEqual([
      { pointer: '/steps', message: 'the document has 4 steps and blocks, more than 3' },
    ]);
  });

  it('refuses a document past its size, its steps or its nesting', () => {
    const big = checkChoreoDocument('/Mine/Doc', JSON.stringify(valid), steps, { ...DEFAULT_CHOREO_DOCUMENT_LIMITS, maxBytes: 100 });
    expect(big).toMatchObject({ ok: false, tooLarge: true, problems: [{ pointer: '', message: expect.stringContaining('more than 100') }] });
    const many = { ...valid, steps: Array.from({ length: 4 }, (_, i) => ({ id: `s${i}`, kind: 'noop' })) };
    expect(problemsOf(many, { ...DEFAULT_CHOREO_DOCUMENT_LIMITS, maxSteps: 3 })).toEqual([
      { pointer: '/steps', message: 'the document has 4 steps and blocks, more than 3' },
    ]);
    const deep = { ...valid, steps: [{ id: 'deep', kind: 'noop', args: { a: { b: { c: [1] } } } }] };
    expect(problemsOf(deep, { ...DEFAULT_CHOREO_DOCUMENT_LIMITS, maxDepth: 6 })).toEqual([
      { pointer: '/steps/0/args/a/b/c', message: 'the document nests 7 levels, more than 6' },
    ]);
  });

  it('takes ids whose segments follow the catalogue', () => {
    expect(isValidChoreoId('/Mine/Tools/Doc-1.v2')).toBe(true);
    for (const id of ['', '/', 'Mine', '/Mine//Doc', '/Mine/.hidden', '/Mine/a b', '/Mine/..']) expect(isValidChoreoId(id), id).toBe(false);
  });
});
