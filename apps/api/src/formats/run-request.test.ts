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
});
