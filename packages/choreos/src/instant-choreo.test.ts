import { describe, expect, it } from 'vitest';
import { isInstantChoreo } from './instant-choreo.ts';
import { parseDefinition } from './parse-definition.ts';
import { createStepLibrary } from './step-library.ts';

describe('isInstantChoreo', () => {
  const steps = createStepLibrary();
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

  it('is false for a kind the library does not know', () => {
    const definition = definitionOf(encode);
    expect(isInstantChoreo({ ...definition, steps: [{ ...definition.steps[0]!, kind: 'unknown.kind' }] }, steps)).toBe(false);
  });
});
