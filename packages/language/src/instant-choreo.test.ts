import { describe, expect, it } from 'vitest';
import { isInstantChoreo } from './instant-choreo.ts';
import { parseDefinition } from './parse-definition.ts';
import { stepLibraryForTest } from './step-library-for-test.ts';

describe('isInstantChoreo', () => {
  const steps = stepLibraryForTest();
  const definitionOf = (...stepDefinitions: unknown[]) => {
    const parsed = parseDefinition({ description: 'test', steps: stepDefinitions }, steps);
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    return parsed.definition;
  };
  const encode = { id: 'encode', kind: 'encoding.base64-encode', args: { text: 'x' } };
  const hash = { id: 'hash', kind: 'hashing.hash', args: { text: 'x', algorithm: 'sha256' } };

  it('is true when every step is an instant kind without retries', () => {
    expect(isInstantChoreo(definitionOf(encode, hash), steps)).toBe(true);
  });

  it('is false with a step that waits, calls out, or retries after a backoff', () => {
    expect(isInstantChoreo(definitionOf(encode, { id: 'pause', kind: 'control.wait', args: { milliseconds: '5' } }), steps)).toBe(false);
    expect(isInstantChoreo(definitionOf({ id: 'call', kind: 'http.request', args: { url: 'https://example.com/' } }), steps)).toBe(false);
    expect(isInstantChoreo(definitionOf({ ...encode, retry: { attempts: 2, backoffMs: 100 } }), steps)).toBe(false);
  });

  it('is false for a Choreo that declares a secret output, whose runs must be taken to seal it', () => {
    const parsed = parseDefinition(
      { description: 'test', outputs: { Encoded: { description: 'The text encoded.', value: '{{steps.encode.text}}', secret: true } }, steps: [encode] },
      steps,
    );
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    expect(isInstantChoreo(parsed.definition, steps)).toBe(false);
  });

  it('is false for a kind the library does not know', () => {
    const definition = definitionOf(encode);
    const [step] = definition.steps;
    if (!step) throw new Error('the Choreo has no step to change');
    expect(isInstantChoreo({ ...definition, steps: [{ ...step, kind: 'unknown.kind' }] }, steps)).toBe(false);
  });
});

describe('isInstantChoreo with a kind pure unless an argument is given', () => {
  const steps = stepLibraryForTest();
  const parsed = parseDefinition(
    {
      description: 'test',
      inputs: { Text: { description: 'text' }, URL: { description: 'url' } },
      steps: [{ id: 'encode', kind: 'encoding.base64-encode-source', args: { text: '{{inputs.Text}}', url: '{{inputs.URL}}' } }],
    },
    steps,
  );
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  const definition = parsed.definition;

  it('may be instant before a run, and is for a run that leaves the argument empty', () => {
    expect(isInstantChoreo(definition, steps)).toBe(true);
    expect(isInstantChoreo(definition, steps, { Text: 'x', URL: '' })).toBe(true);
    expect(isInstantChoreo(definition, steps, { Text: 'x' })).toBe(true);
  });

  it('is not for a run that gives it', () => {
    expect(isInstantChoreo(definition, steps, { Text: '', URL: 'https://example.com/file' })).toBe(false);
  });

  it('is not when the argument is anything but one input', () => {
    const step = definition.steps[0];
    if (step === undefined || !('kind' in step)) throw new Error('expected a step');
    const computed = { ...definition, steps: [{ ...step, args: { ...step.args, url: 'https://{{inputs.URL}}' } }] };
    expect(isInstantChoreo(computed, steps, { URL: '' })).toBe(false);
  });
});
