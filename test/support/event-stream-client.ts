import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { ensureSelfSignedCertificate } from '@ces/local-runtime';
import { waitFor } from '@ces/testing';
import type { Credential, Stack } from './stack.ts';

/** One Server-Sent Event as a client reads it. */
export interface ReceivedEvent {
  id: string;
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the event's fields and its assertions check them
  data: any;
}

/** A run events stream read over real HTTPS as it comes. */
export interface EventStreamClient {
  status: number;
  contentType: string | undefined;
  events(): ReceivedEvent[];
  heartbeats(): number;
  closed(): boolean;
  waitFor(predicate: (events: ReceivedEvent[]) => boolean, what: string, timeoutMs?: number): Promise<ReceivedEvent[]>;
  waitUntilClosed(timeoutMs?: number): Promise<ReceivedEvent[]>;
  /** The client goes away (its connection closed). */
  close(): void;
}

/** Opens GET …/choreo-executions/<id>/events on the stack's API (or `via` another of its APIs). */
export async function openEventStream(
  stack: Stack,
  id: string,
  credential: Credential,
  options: { lastEventId?: string; via?: number } = {},
): Promise<EventStreamClient> {
  const ca = readFileSync((await ensureSelfSignedCertificate(stack.dataDir)).certFile, 'utf8');
  const port = stack.apis[options.via ?? 0]?.port ?? stack.port;
  const headers: Record<string, string> = {
    accept: 'text/event-stream',
    authorization: `Basic ${Buffer.from(`${credential.name}:${credential.secret}`).toString('base64')}`,
    'x-service-domain': `/${credential.account}/master`,
    ...(options.lastEventId !== undefined ? { 'last-event-id': options.lastEventId } : {}),
  };
  let text = '';
  let ended = false;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: `/service-api/1.0/choreo-executions/${id}/events`, method: 'GET', headers, ca, servername: 'localhost' },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        const finish = () => {
          ended = true;
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
        const events = () => parse(text).events;
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'],
          events,
          heartbeats: () => parse(text).heartbeats,
          closed: () => ended,
          waitFor: (predicate, what, timeoutMs = 30_000) => waitFor(() => predicate(events()) && events(), { timeoutMs, what }),
          async waitUntilClosed(timeoutMs = 30_000) {
            await waitFor(() => ended, { timeoutMs, what: 'the server to close the stream' });
            return events();
          },
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', (error) => {
      ended = true;
      reject(error);
    });
    req.end();
  });
}

function parse(text: string): { events: ReceivedEvent[]; heartbeats: number } {
  const events: ReceivedEvent[] = [];
  let heartbeats = 0;
  const blocks = text.split('\n\n');
  blocks.pop();
  for (const block of blocks) {
    const fields: Record<string, string> = {};
    for (const line of block.split('\n')) {
      if (line === ': heartbeat') heartbeats += 1;
      const match = /^(id|event|data): (.*)$/.exec(line);
      if (match) fields[match[1] as string] = match[2] as string;
    }
    if (fields.event !== undefined) events.push({ id: fields.id ?? '', event: fields.event, data: JSON.parse(fields.data ?? 'null') });
  }
  return { events, heartbeats };
}
