import { describe, expect, it } from 'vitest';
import { decodeStepHistory, encodeStepEvents, type StepEvent } from './step-history.ts';

const event = (extra: Partial<StepEvent> = {}): StepEvent => ({
  id: 'post',
  address: 'post',
  attempt: 1,
  start: 1_764_000_000_000,
  end: 1_764_000_000_003,
  durationMs: 2.5,
  host: '10.0.0.1',
  outcome: 'succeeded',
  ...extra,
});

const inLoop = (iteration: number, extra: Partial<StepEvent> = {}) => event({ address: `each[${iteration}].post`, iteration, ...extra });

describe('step events as stored', () => {
  it('reads back every kind of event as it was written', () => {
    const events = [
      event(),
      inLoop(0),
      inLoop(12, { attempt: 2, outcome: 'failed', error: 'boom' }),
      event({ id: 'inner', address: 'outer[2].inner[7].inner', iteration: 7, host: '10.0.0.2' }),
      event({ id: 'post', address: 'each[3].post[3].post', iteration: 3, outcome: 'stopped' }),
      event({ id: 'fetch', address: 'each[1].fetch', iteration: 4 }),
      event({ host: '10.0.0.1' }),
    ];
    const stored = encodeStepEvents(events);
    expect(decodeStepHistory(stored)).toEqual({ events });
    // The same events kept in the record's field, as one array.
    expect(decodeStepHistory([], `[${stored.join(',')}]`)).toEqual({ events });
  });

  it('writes a loop step without its address, its start after the one before, and the host only when it changes', () => {
    const at = (ms: number) => ({ start: 1_764_000_000_000 + ms, end: 1_764_000_000_003 + ms });
    const events = [inLoop(41), inLoop(42, at(4)), inLoop(43, { host: 'worker-b', ...at(2) }), inLoop(44, at(2 + 4e11))];
    const stored = encodeStepEvents(events).map((json) => JSON.parse(json) as unknown[]);
    expect(stored).toEqual([
      ['post', 'each', 41, 1, 1_764_000_000_000, 3, 2.5, '10.0.0.1', 0],
      ['post', 'each', 42, 1, 4, 3, 2.5, 0, 0],
      // Started before the one before it, as in a parallel loop.
      ['post', 'each', 43, 1, -2, 3, 2.5, 'worker-b', 0],
      // Too long after it to be told from an epoch: written in full.
      ['post', 'each', 44, 1, 2_164_000_000_002, 3, 2.5, '10.0.0.1', 0],
    ]);
    expect(decodeStepHistory(encodeStepEvents(events)).events).toEqual(events);
  });

  it('writes the first event relative to the one before when the writer knows it', () => {
    const [first] = encodeStepEvents([inLoop(1, { start: 1_764_000_000_010, end: 1_764_000_000_013 })], { host: '10.0.0.1', start: 1_764_000_000_000 });
    expect(JSON.parse(first ?? '')).toEqual(['post', 'each', 1, 1, 10, 3, 2.5, 0, 0]);
    const [other] = encodeStepEvents([inLoop(1)], { host: 'worker-b', start: 1_764_000_000_000 });
    expect(JSON.parse(other ?? '')[7]).toBe('10.0.0.1');
    // Read after the one it follows.
    const read = decodeStepHistory([...encodeStepEvents([inLoop(0)]), first ?? '']).events[1];
    expect(read).toMatchObject({ host: '10.0.0.1', start: 1_764_000_000_010, end: 1_764_000_000_013 });
  });

  it('carries the host and the start of dropped events across their marker', () => {
    const at = (ms: number) => ({ start: 1_764_000_000_000 + ms, end: 1_764_000_000_003 + ms });
    const [kept, , , last] = encodeStepEvents([
      inLoop(0),
      inLoop(1, { host: 'worker-b', ...at(5) }),
      inLoop(2, { host: 'worker-b', ...at(10) }),
      inLoop(3, { host: 'worker-b', ...at(15) }),
    ]);
    const history = decodeStepHistory([kept ?? '', '{"dropped":2,"start":10,"host":"worker-b"}', last ?? '']);
    expect(history.dropped).toEqual({ count: 2, after: 1 });
    expect(history.events).toEqual([inLoop(0), inLoop(3, { host: 'worker-b', ...at(15) })]);
    // A marker without a host: the dropped events had the host of the one before them.
    const same = encodeStepEvents([inLoop(0), inLoop(1), inLoop(2)]);
    expect(decodeStepHistory([same[0] ?? '', '{"dropped":1,"start":0}', same[2] ?? '']).events[1]).toEqual(inLoop(2));
  });

  it('reads events stored in the earlier form, every address, start and host written out', () => {
    const earlier = [
      '["post","each[3].post",3,1,1764000000000,3,2.5,"10.0.0.1",0]',
      '["post",0,-1,2,1764000000000,3,2.5,"10.0.0.1",1,"boom"]',
      '{"dropped":4}',
      '["inner","outer[2].inner[7].inner",7,1,1764000000000,3,2.5,"10.0.0.2",2]',
    ];
    expect(decodeStepHistory(earlier)).toEqual({
      events: [
        inLoop(3),
        event({ attempt: 2, outcome: 'failed', error: 'boom' }),
        event({ id: 'inner', address: 'outer[2].inner[7].inner', iteration: 7, host: '10.0.0.2', outcome: 'stopped' }),
      ],
      dropped: { count: 4, after: 2 },
    });
  });
});
