import { describe, expect, it } from 'vitest';
import { PendingStepEvents } from './run-steps.ts';

// What a worker stores of a run as it goes: run events in the order things happened, each retry's
// start told with its end, and taken by whichever write goes next.
describe('pending run events', () => {
  it('tells a retried step as start, failed end, start of the retry, its end', () => {
    const pending = new PendingStepEvents('10.0.0.1');
    pending.progress({ type: 'step.started', index: 0, id: 'call', address: 'call', attempt: 1, time: 100, pure: false });
    pending.add({
      index: 0,
      id: 'call',
      address: 'call',
      kind: 'http.request',
      durationMs: 30,
      ok: true,
      attempts: [
        { attempt: 1, start: 101, end: 110, durationMs: 9, outcome: 'failed', error: 'boom' },
        { attempt: 2, start: 120, end: 130, durationMs: 10, outcome: 'succeeded' },
      ],
    });
    expect(pending.takeRunEvents().map((event) => [event.type, event.time, 'attempt' in event ? event.attempt : 0])).toEqual([
      ['step.started', 100, 1],
      ['step.ended', 110, 1],
      ['step.started', 120, 2],
      ['step.ended', 130, 2],
    ]);
    expect(pending.takeRunEvents()).toEqual([]);
    expect(pending.take()).toHaveLength(2);
  });

  it('tells iterations and durable waits with their place and host', () => {
    const pending = new PendingStepEvents('10.0.0.2');
    pending.progress({ type: 'iteration.started', index: 1, address: 'each[3]', iteration: 3, time: 5 });
    pending.progress({ type: 'wait.started', index: 1, address: 'each[3].pause', waitFor: 'callback', untilMs: 900, time: 6 });
    pending.progress({ type: 'iteration.ended', index: 1, address: 'each[3]', iteration: 3, time: 7, outcome: 'stopped', durationMs: 2 });
    expect(pending.takeRunEvents()).toEqual([
      { type: 'iteration.started', time: 5, address: 'each[3]', iteration: 3, attempt: 1, host: '10.0.0.2' },
      { type: 'wait.started', time: 6, address: 'each[3].pause', waitFor: 'callback', until: 900 },
      { type: 'iteration.ended', time: 7, address: 'each[3]', iteration: 3, attempt: 1, host: '10.0.0.2', outcome: 'stopped', durationMs: 2 },
    ]);
  });
});
