import { describe, expect, it } from 'vitest';
import { createSseParser } from './sse-parser.ts';

describe('the event stream parser', () => {
  it('reads id, event and data, and skips heartbeats', () => {
    const parser = createSseParser();
    const events = parser.push('id: 1\nevent: step.started\ndata: {"type":"step.started"}\n\n: heartbeat\n\nid: 2\nevent: step.ended\ndata: {"a":1}\n\n');
    expect(events).toEqual([
      { id: '1', event: 'step.started', data: '{"type":"step.started"}' },
      { id: '2', event: 'step.ended', data: '{"a":1}' },
    ]);
  });

  it('completes an event cut anywhere across chunks, CRLF included', () => {
    const text = 'id: 7\r\nevent: execution.ended\r\ndata: {"type":"execution.ended"}\r\n\r\n';
    for (let cut = 1; cut < text.length; cut += 1) {
      const parser = createSseParser();
      const events = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
      expect(events, `cut at ${cut}`).toEqual([{ id: '7', event: 'execution.ended', data: '{"type":"execution.ended"}' }]);
    }
  });

  it('joins several data lines and gives an event without an id none', () => {
    expect(createSseParser().push('data: a\ndata: b\n\n')).toEqual([{ id: undefined, event: 'message', data: 'a\nb' }]);
  });

  it('keeps an event whose blank line has not come yet', () => {
    const parser = createSseParser();
    expect(parser.push('id: 1\ndata: x\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: '1', event: 'message', data: 'x' }]);
  });
});
