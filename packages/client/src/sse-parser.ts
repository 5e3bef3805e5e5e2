/** One Server-Sent Event as the stream carried it. */
export interface ServerSentEvent {
  /** The `id:` field; `undefined` when the event had none. */
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * Reads a `text/event-stream` piece by piece (as chunks arrive, cut anywhere) and returns the
 * events each piece completes. Comment lines (`: heartbeat`) carry nothing and are skipped.
 */
export function createSseParser(): { push(chunk: string): ServerSentEvent[] } {
  let buffer = '';
  let id: string | undefined;
  let event = '';
  let data: string[] = [];
  return {
    push(chunk) {
      buffer += chunk;
      const events: ServerSentEvent[] = [];
      for (;;) {
        const end = buffer.search(/\r\n|\r|\n/);
        // A lone \r at the end may be the first half of \r\n: wait for what follows.
        if (end === -1 || (buffer[end] === '\r' && end === buffer.length - 1)) break;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
        if (line === '') {
          if (data.length > 0) events.push({ id, event: event || 'message', data: data.join('\n') });
          id = undefined;
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') id = value;
        else if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      return events;
    },
  };
}
