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

  it('writes a loop step without its address and the host only when it changes', () => {
    const stored = encodeStepEvents([inLoop(41), inLoop(42), inLoop(43, { host: 'worker-b' })]).map((json) => JSON.parse(json) as unknown[]);
    expect(stored).toEqual([
      ['post', 'each', 41, 1, 1_764_000_000_000, 3, 2.5, '10.0.0.1', 0],
      ['post', 'each', 42, 1, 1_764_000_000_000, 3, 2.5, 0, 0],
      ['post', 'each', 43, 1, 1_764_000_000_000, 3, 2.5, 'worker-b', 0],
    ]);
  });

  it('leaves out the first host when the writer knows the event before had it', () => {
    const [first] = encodeStepEvents([inLoop(1)], '10.0.0.1');
    expect(JSON.parse(first ?? '')).toEqual(['post', 'each', 1, 1, 1_764_000_000_000, 3, 2.5, 0, 0]);
    const [other] = encodeStepEvents([inLoop(1)], 'worker-b');
    expect(JSON.parse(other ?? '')[7]).toBe('10.0.0.1');
    // Read after one that names it.
    expect(decodeStepHistory([...encodeStepEvents([inLoop(0)]), first ?? '']).events[1]?.host).toBe('10.0.0.1');
  });

  it('carries the host of dropped events across their marker', () => {
    const [kept, , , last] = encodeStepEvents([inLoop(0), inLoop(1, { host: 'worker-b' }), inLoop(2, { host: 'worker-b' }), inLoop(3, { host: 'worker-b' })]);
    const history = decodeStepHistory([kept ?? '', '{"dropped":2,"host":"worker-b"}', last ?? '']);
    expect(history.dropped).toEqual({ count: 2, after: 1 });
    expect(history.events.map((e) => `${e.address} ${e.host}`)).toEqual(['each[0].post 10.0.0.1', 'each[3].post worker-b']);
    // A marker without a host: the dropped events had the host of the one before them.
    const same = encodeStepEvents([inLoop(0), inLoop(1), inLoop(2)]);
    expect(decodeStepHistory([same[0] ?? '', '{"dropped":1}', same[2] ?? '']).events[1]?.host).toBe('10.0.0.1');
  });

  it('reads events stored in the earlier form, every address and host written out', () => {
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
