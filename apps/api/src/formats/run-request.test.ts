import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.ts';
import { parseRunRequest } from './run-request.ts';

const json = (body: string) => parseRunRequest(body, 'application/json');

describe('the body of a run', () => {
  it('takes a JSON number as written, beside strings and booleans', () => {
    expect(
      json(
        '{"inputs": [{"name": "A", "value": 12.50}, {"name": "B", "value": "x"}, {"name": "C", "value": true}, {"name": "D", "value": 12345678901234567890}]}',
      ).inputs,
    ).toEqual({
      A: '12.50',
      B: 'x',
      C: 'true',
      D: '12345678901234567890',
    });
  });

  it('still refuses a number where a string must be, when a value is a number too', () => {
    for (const body of [
      '{"inputs": [{"name": 5, "value": 1}]}',
      '{"inputs": [{"name": "A", "value": 1}], "outputFilters": [{"name": 1, "path": "$", "variable": "A"}]}',
    ]) {
      expect(() => json(body), body).toThrow(ApiError);
    }
    expect(() => json('{"inputs": [{"name": 5, "value": 1}]}')).toThrow('inputs[0].name must be a string.');
  });

  it("reads the body the original's SDKs send: inputs, outputFilters and preset", () => {
    const body = JSON.stringify({
      inputs: [{ name: 'Text', value: 'hi' }],
      outputFilters: [{ name: 'First', path: '$.a', variable: 'Response' }],
      preset: 'My Twitter keys',
    });
    expect(json(body)).toEqual({
      inputs: { Text: 'hi' },
      outputFilters: [{ name: 'First', path: '$.a', variable: 'Response' }],
      preset: 'My Twitter keys',
    });
    // The Node SDK sends only what was set; PHP always sends a list of inputs, maybe empty.
    expect(json('{}')).toEqual({ inputs: {}, outputFilters: [] });
    expect(json('{"inputs": []}')).toEqual({ inputs: {}, outputFilters: [] });
    expect(json('{"preset": "p"}')).toEqual({ inputs: {}, outputFilters: [], preset: 'p' });
  });

  it('reads a preset in XML', () => {
    const xml = (body: string) => parseRunRequest(body, 'application/xml');
    expect(xml('<inputs><preset>My keys</preset><input><name>A</name><value>1</value></input></inputs>')).toEqual({
      inputs: { A: '1' },
      outputFilters: [],
      preset: 'My keys',
    });
    expect(() => xml('<inputs><preset>a</preset><preset>b</preset></inputs>')).toThrow('more than one <preset>');
    expect(() => xml('<inputs><preset><x>a</x></preset></inputs>')).toThrow(/preset must be/);
    expect(() => xml('<inputs><preset/></inputs>')).toThrow(/preset must be/);
  });

  it('refuses a preset that is not a name', () => {
    for (const preset of [7, null, true, '', 'x'.repeat(257), 'a\u0000b', 'line\nbreak', ['a'], { name: 'a' }]) {
      const body = JSON.stringify({ preset });
      expect(() => json(body), body).toThrow('preset must be the name of a preset');
    }
    expect(json(JSON.stringify({ preset: 'x'.repeat(256) })).preset).toHaveLength(256);
    expect(json(JSON.stringify({ preset: 'Ünïcødé ☺ {braces}' })).preset).toBe('Ünïcødé ☺ {braces}');
  });
});
