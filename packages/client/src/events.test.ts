import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createCesClient } from './ces-client.ts';
import type { RunEvent } from './run-events.ts';

const BASE = '/service-api/1.0/choreo-executions';
const execution = (status: string) => ({ id: 'r1', choreo: '/Library/X', starttime: '1', endtime: status === 'RUNNING' ? '' : '9', host: 'h', status });
const sse = (id: number, data: object) => `id: ${id}\nevent: ${(data as { type: string }).type}\ndata: ${JSON.stringify(data)}\n\n`;
const json = (res: ServerResponse, status: number, body: object) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

// How the client reads the wire format of run events: resuming after a cut with Last-Event-ID, and
// reading the step history instead where a service has no events endpoint. A small HTTP server
// plays the service's side of the protocol; the real service is in test/e2e/typed-client.test.ts.
describe('the client following a run', () => {
  let server: Server | undefined;

  afterEach(async () => {
    server?.closeAllConnections();
    server?.close();
  });

  async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
    server = createServer(handler);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    return createCesClient({ url: `http://127.0.0.1:${port}`, account: 'acme', credentials: { name: 'alice', secret: 's' }, pollIntervalMs: 20 });
  }

  async function collect(events: AsyncIterable<RunEvent>) {
    const seen: RunEvent[] = [];
    for await (const event of events) seen.push(event);
    return seen;
  }

  it('resumes after the last event it received when the stream breaks off, and ends with execution.ended', async () => {
    const lastEventIds: (string | undefined)[] = [];
    const client = await serve((req, res) => {
      expect(req.url).toBe(`${BASE}/r1/events`);
      expect(req.headers['x-service-domain']).toBe('/acme/master');
      lastEventIds.push(req.headers['last-event-id'] as string | undefined);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (lastEventIds.length === 1) {
        res.write(sse(1, { type: 'step.started', time: '1', address: 'a', step: 'a', attempt: 1, host: 'h' }));
        res.write(': heartbeat\n\n');
        res.write(sse(2, { type: 'step.ended', time: '2', address: 'a', step: 'a', attempt: 1, host: 'h', outcome: 'succeeded', durationMs: 1 }));
        // Half an event, then the connection is cut: it is sent again after id 2.
        res.write('id: 3\nevent: execution.ended\n');
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      res.end(sse(3, { type: 'execution.ended', time: '9', execution: execution('SUCCESS') }));
    });
    const events = await collect(client.events('r1'));
    expect(events.map((event) => [event.id, event.type])).toEqual([
      ['1', 'step.started'],
      ['2', 'step.ended'],
      ['3', 'execution.ended'],
    ]);
    expect(lastEventIds).toEqual([undefined, '2']);
  });

  it('reads the step history where the service has no events endpoint', async () => {
    let polls = 0;
    const step = (id: string) => ({ id, address: id, attempt: '1', start: '1', end: '2', duration: '0.5', host: 'h', outcome: 'succeeded' });
    const client = await serve((req, res) => {
      if (req.url === `${BASE}/r1/events`) return json(res, 404, { error: { message: 'Not found.', code: 'NOT_FOUND', requestId: 'q' } });
      if (req.url === `${BASE}/r1`) return json(res, 200, { execution: execution('RUNNING') });
      expect(req.url).toBe(`${BASE}/r1?view=steps`);
      polls += 1;
      if (polls === 1) return json(res, 200, { execution: execution('RUNNING'), steps: [step('a')] });
      return json(res, 200, { execution: execution('ERROR'), steps: [step('a'), { ...step('b'), outcome: 'failed', error: 'no' }] });
    });
    const events = await collect(client.events('r1'));
    expect(events.map((event) => [event.type, 'address' in event ? event.address : '', 'outcome' in event ? event.outcome : ''])).toEqual([
      ['step.ended', 'a', 'succeeded'],
      ['step.ended', 'b', 'failed'],
      ['execution.ended', '', ''],
    ]);
  });

  it('answers the 404 of an execution that does not exist', async () => {
    const client = await serve((_req, res) => json(res, 404, { error: { message: 'No such execution.', code: 'NOT_FOUND', requestId: 'q' } }));
    await expect(collect(client.events('r1'))).rejects.toMatchObject({ name: 'ApiError', status: 404, code: 'NOT_FOUND', message: 'No such execution.' });
  });
});
