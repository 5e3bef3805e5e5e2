import { must, waitFor } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { openEventStream, type ReceivedEvent } from '../support/event-stream-client.ts';
import { useWorkerTestStack } from '../support/worker-test-stack.ts';

// GET …/choreo-executions/<id>/events from real worker processes through the real API over
// HTTPS: what a client watching a run receives, through a worker's crash and its own reconnects.
describe('run events', () => {
  const harness = useWorkerTestStack({ workers: 2, env: { EVENTS_HEARTBEAT_MS: '200' } });
  const { counter } = harness;

  const describeEvent = (event: ReceivedEvent) => `${event.event} ${event.data.address ?? ''}`.trim();
  const ids = (events: readonly ReceivedEvent[]) => events.map((event) => event.id);

  it('tells every start and end of a loop of pure steps around calls, in order, then the end, and closes', { timeout: 60_000 }, async () => {
    const alice = harness.stack.credentials.alice;
    const id = await harness.stack.startRun('Test/PureAroundCalls', alice, { CounterURL: counter.urlFor('order'), Count: '2' });
    const stream = await openEventStream(harness.stack, id, alice);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    const events = await stream.waitUntilClosed();
    const iteration = (index: number) => [
      `iteration.started each[${index}]`,
      `step.started each[${index}].label`,
      `step.ended each[${index}].label`,
      `step.started each[${index}].call`,
      `step.ended each[${index}].call`,
      `step.started each[${index}].tenfold`,
      `step.ended each[${index}].tenfold`,
      `iteration.ended each[${index}]`,
    ];
    expect(events.map(describeEvent)).toEqual([...iteration(0), ...iteration(1), 'execution.ended']);
    const call = must(events.find((event) => event.event === 'step.ended' && event.data.address === 'each[1].call'));
    expect(call.data).toMatchObject({
      type: 'step.ended',
      step: 'call',
      iteration: 1,
      attempt: 1,
      outcome: 'succeeded',
      host: expect.stringMatching(/^10\.0\.0\.\d$/),
    });
    expect(Number(call.data.durationMs)).toBeGreaterThanOrEqual(0);
    const end = must(events.at(-1)).data;
    const status = await harness.stack.call('GET', `/choreo-executions/${id}`, alice);
    expect(end.execution).toEqual(status.json().execution);
    expect(end.execution.status).toBe('SUCCESS');

    // Ended: the same events again, the same ids, and the stream closes.
    const replay = await openEventStream(harness.stack, id, alice);
    expect(ids(await replay.waitUntilClosed())).toEqual(ids(events));
  });

  it('loses no event and repeats none through a SIGKILLed worker and a client that reconnects with Last-Event-ID', { timeout: 120_000 }, async () => {
    const alice = harness.stack.credentials.alice;
    const tag = 'kill';
    counter.hold(1);
    const id = await harness.stack.startRun('Test/PureAroundCalls', alice, { CounterURL: counter.urlFor(tag), Count: '3' });
    const watching = await openEventStream(harness.stack, id, alice);
    // The call of item 1 is in flight: its start is stored, its end is not.
    await waitFor(() => counter.count(tag, 1) === 1, { timeoutMs: 20_000, what: 'the call of item 1' });
    const before = await watching.waitFor(
      (events) => events.some((event) => describeEvent(event) === 'step.started each[1].call'),
      'the start of the held call',
    );
    // A client that leaves here and comes back once the run has gone on.
    const leaving = await openEventStream(harness.stack, id, alice);
    const seen = await leaving.waitFor((events) => events.length === before.length, 'the second client to catch up');
    leaving.close();

    const record = must(await harness.stack.executions.get(id));
    const { worker: victim } = harness.stack.workerOn(record.host);
    victim.kill('SIGKILL');
    await victim.exited;
    counter.release(1);

    const events = await watching.waitUntilClosed(90_000);
    expect(must(events.at(-1)).data.execution.status).toBe('SUCCESS');
    // Strictly increasing ids: none twice, none out of order.
    const received = ids(events);
    expect(new Set(received).size).toBe(received.length);
    // Every step ended once, and only as it completed: no end of the call the kill interrupted.
    const ends = events.filter((event) => event.event === 'step.ended').map(describeEvent);
    expect(ends).toEqual(
      [0, 1, 2].flatMap((index) => [`step.ended each[${index}].label`, `step.ended each[${index}].call`, `step.ended each[${index}].tenfold`]),
    );
    expect(events.filter((event) => event.event === 'step.ended').every((event) => event.data.outcome === 'succeeded')).toBe(true);
    // The interrupted call started again on the other worker: a new attempt, told once more.
    const callStarts = events.filter((event) => describeEvent(event) === 'step.started each[1].call');
    expect(callStarts).toHaveLength(2);
    expect(new Set(callStarts.map((event) => event.data.host)).size).toBe(2);

    // Back after the end, from where it left: exactly the rest.
    const back = await openEventStream(harness.stack, id, alice, { lastEventId: must(seen.at(-1)).id });
    const rest = await back.waitUntilClosed();
    expect([...ids(seen), ...ids(rest)]).toEqual(received);
    // A fresh client replays it all, the same.
    const replay = await openEventStream(harness.stack, id, alice);
    expect(ids(await replay.waitUntilClosed())).toEqual(received);
  });

  it('ends the stream of a run terminated while it is watched, with heartbeats meanwhile', { timeout: 60_000 }, async () => {
    const alice = harness.stack.credentials.alice;
    counter.hold(0);
    const id = await harness.stack.startRun('Test/Counted', alice, { CounterURL: counter.urlFor('terminated'), WaitMilliseconds: '50' });
    const stream = await openEventStream(harness.stack, id, alice);
    await stream.waitFor((events) => events.some((event) => describeEvent(event) === 'step.started call0'), 'the first call to start');
    await waitFor(() => stream.heartbeats() >= 2, { what: 'two heartbeats' });
    expect((await harness.stack.call('DELETE', `/choreo-executions/${id}`, alice)).status).toBe(204);
    counter.release(0);
    const events = await stream.waitUntilClosed();
    const end = must(events.at(-1));
    expect(end.event).toBe('execution.ended');
    expect(end.data.execution).toMatchObject({ id, status: 'TERMINATED_MANUALLY' });
    expect(events.filter((event) => event.event === 'execution.ended')).toHaveLength(1);
  });

  it('tells the child a step starts, between its start and its end', { timeout: 60_000 }, async () => {
    const alice = harness.stack.credentials.alice;
    const parent = {
      description: 'Runs one child.',
      outputs: { CompletedSteps: { description: 'Steps.', type: 'STRING_VARIABLE', value: '{{run.completedSteps}}' } },
      steps: [{ id: 'child', kind: 'choreo.run', args: { choreo: '/Test/Quick', inputs: {} } }],
    };
    expect((await harness.stack.call('PUT', '/choreos/Events/Parent', alice, { body: JSON.stringify(parent) })).status).toBe(201);
    const id = await harness.stack.startRun('Events/Parent', alice);
    const stream = await openEventStream(harness.stack, id, alice);
    const events = await stream.waitUntilClosed();
    expect(events.map(describeEvent)).toEqual(['step.started child', 'child.started child', 'step.ended child', 'execution.ended']);
    const child = must(events[1]).data.child as string;
    expect(child).toMatch(/^[0-9a-f]{32}$/);
    expect((await harness.stack.waitForEnd(child, alice)).status).toBe('SUCCESS');
  });

  it("refuses another account's run and an unknown id as unknown (404, JSON)", async () => {
    const alice = harness.stack.credentials.alice;
    const id = await harness.stack.startRun('Test/Quick', alice);
    await harness.stack.waitForEnd(id, alice);
    for (const [execution, credential] of [
      [id, harness.stack.credentials.bob],
      ['0123456789abcdef0123456789abcdef', alice],
    ] as const) {
      const res = await harness.stack.call('GET', `/choreo-executions/${execution}/events`, credential, { accept: 'text/event-stream' });
      expect(res.status).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
  });
});
