import { waitFor } from '@ces/testing';
import { BASE_PATH } from '../base-path.ts';
import { parseFrames, type ParsedFrame } from '../events/sse-frames.ts';
import type { InProcessApp, TestCredential } from './in-process-app.ts';

/** A run events stream as a client reads it: the frames so far, whether the server closed it. */
export interface OpenEventStream {
  status: number;
  contentType: string | null;
  frames(): ParsedFrame[];
  /** The frames of events (not heartbeats). */
  events(): ParsedFrame[];
  closed(): boolean;
  /** Waits until `count` events have come (or fails after the deadline). */
  waitForEvents(count: number, timeoutMs?: number): Promise<ParsedFrame[]>;
  waitUntilClosed(timeoutMs?: number): Promise<ParsedFrame[]>;
  /** The client leaves. */
  cancel(): Promise<void>;
}

/** Opens GET …/choreo-executions/<id>/events on the in-process app and reads it as it comes. */
export async function openEventStream(t: InProcessApp, id: string, credential: TestCredential, lastEventId?: string): Promise<OpenEventStream> {
  const headers: Record<string, string> = {
    accept: 'text/event-stream',
    authorization: `Basic ${Buffer.from(`${credential.name}:${credential.secret}`).toString('base64')}`,
    'x-service-domain': `/${credential.account}/master`,
    ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}),
  };
  const response = await t.app.request(`${BASE_PATH}/choreo-executions/${id}/events`, { headers });
  let text = '';
  let done = false;
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  const pump = (async () => {
    if (reader === undefined) {
      done = true;
      return;
    }
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
    done = true;
  })();
  const frames = () => parseFrames(text);
  const events = () => frames().filter((frame) => frame.event !== undefined);
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    frames,
    events,
    closed: () => done,
    waitForEvents: (count, timeoutMs = 10_000) => waitFor(() => events().length >= count && events(), { timeoutMs, what: `${count} events` }),
    async waitUntilClosed(timeoutMs = 10_000) {
      await waitFor(() => done, { timeoutMs, what: 'the stream to close' });
      await pump;
      return events();
    },
    async cancel() {
      await reader?.cancel().catch(() => {});
      await pump;
    },
  };
}
