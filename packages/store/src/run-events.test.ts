import { describe, expect, it } from 'vitest';
import { encodeRunEvent, isAfter, RUN_EVENT_ID } from './run-events.ts';

describe('run events as stored', () => {
  it('are one line of JSON, type first, every time a string', () => {
    const line = encodeRunEvent({
      type: 'step.ended',
      time: 1767261600004,
      address: 'each[3].check',
      step: 'check',
      iteration: 3,
      attempt: 2,
      host: '10.0.0.1',
      outcome: 'failed',
      durationMs: 0.0984,
      error: 'a "quoted"\nline',
    });
    expect(line).not.toContain('\n');
    expect(line.startsWith('{"type":"step.ended",')).toBe(true);
    expect(JSON.parse(line)).toEqual({
      type: 'step.ended',
      time: '1767261600004',
      address: 'each[3].check',
      step: 'check',
      iteration: 3,
      attempt: 2,
      host: '10.0.0.1',
      outcome: 'failed',
      durationMs: 0.098,
      error: 'a "quoted"\nline',
    });
    expect(JSON.parse(encodeRunEvent({ type: 'iteration.started', time: 5, address: 'each[0]', iteration: 0, attempt: 1, host: 'h' }))).toEqual({
      type: 'iteration.started',
      time: '5',
      address: 'each[0]',
      iteration: 0,
      attempt: 1,
      host: 'h',
    });
    expect(JSON.parse(encodeRunEvent({ type: 'wait.started', time: 5, address: 'pause', waitFor: 'callback' }))).toEqual({
      type: 'wait.started',
      time: '5',
      address: 'pause',
      waitFor: 'callback',
    });
    expect(JSON.parse(encodeRunEvent({ type: 'child.started', time: 5, address: 'run', child: 'abc' }))).toEqual({
      type: 'child.started',
      time: '5',
      address: 'run',
      child: 'abc',
    });
  });

  it('keep an error to 1,000 characters', () => {
    const line = encodeRunEvent({
      type: 'step.ended',
      time: 1,
      address: 'a',
      step: 'a',
      attempt: 1,
      host: 'h',
      outcome: 'failed',
      durationMs: 1,
      error: 'x'.repeat(5000),
    });
    expect((JSON.parse(line) as { error: string }).error).toHaveLength(1001);
  });

  it('have ids that are their numbers in the run', () => {
    expect(RUN_EVENT_ID.test('12')).toBe(true);
    expect(RUN_EVENT_ID.test('1767261600004-0')).toBe(false);
    expect(isAfter('10', '9')).toBe(true);
    expect(isAfter('9', '9')).toBe(false);
  });
});
