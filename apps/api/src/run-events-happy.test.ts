import type { RunEvent } from '@ces/store';
import { newExecutionFixture, waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openEventStream } from './test-support/event-stream.ts';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// GET …/choreo-executions/<id>/events: the run's events as Server-Sent Events. No worker runs
// here: the tests write what a worker writes, through the store, on the real Redis.
const A = '/Library/Utilities/Encoding/Base64Encode';
const HOST = '10.0.0.7';

const started = (address: string, time: number): RunEvent => ({ type: 'step.started', time, address, step: address, attempt: 1, host: HOST });
const ended = (address: string, time: number, durationMs = 1.5): RunEvent => ({
  type: 'step.ended',
  time,
  address,
  step: address,
  attempt: 1,
  host: HOST,
  outcome: 'succeeded',
  durationMs,
});

describe('run events', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl'), config: { eventsHeartbeatMs: 100 } });
  });

  afterAll(async () => {
    await t?.close();
  });

  /** A run accepted and taken, as a worker would have it. */
  const takenRun = async () => {
    const execution = newExecutionFixture({ account: 'acme', choreo: A });
    expect((await t.executions.accept(execution, { maxRunningPerAccount: 0 })).outcome).toBe('accepted');
    const lease = `lease-${execution.id}`;
    expect((await t.executions.take(execution.id, { host: HOST, workerId: 'w1', lease })).outcome).toBe('taken');
    return { id: execution.id, lease };
  };

  it('sends each event as it is stored, in order, then the end with the execution, and closes', async () => {
    const { id, lease } = await takenRun();
    const stream = await openEventStream(t, id, t.credentials.alice);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    const now = Date.now();
    await t.executions.checkpoint(id, { nextStep: 1, entries: [['a', 1]], outputs: {} }, lease, [], [started('a', now), ended('a', now + 1)]);
    const first = await stream.waitForEvents(2);
    expect(first.map((frame) => frame.event)).toEqual(['step.started', 'step.ended']);
    expect(JSON.parse(first[1]?.data ?? '')).toEqual({
      type: 'step.ended',
      time: String(now + 1),
      address: 'a',
      step: 'a',
      attempt: 1,
      host: HOST,
      outcome: 'succeeded',
      durationMs: 1.5,
    });
    await t.executions.recordRunEvents(id, lease, [started('b', now + 2)]);
    await stream.waitForEvents(3);
    await t.executions.end(id, { status: 'SUCCESS', lease, outputs: { out: 'x' }, runEvents: [ended('b', now + 3)] });
    const all = await stream.waitUntilClosed();
    expect(all.map((frame) => frame.event)).toEqual(['step.started', 'step.ended', 'step.started', 'step.ended', 'execution.ended']);
    const ids = all.map((frame) => frame.id ?? '');
    expect(new Set(ids).size).toBe(ids.length);
    const end = JSON.parse(all[4]?.data ?? '') as { type: string; time: string; execution: Record<string, string> };
    expect(end.type).toBe('execution.ended');
    expect(end.time).toMatch(/^\d+$/);
    const status = (await (await t.call('GET', `/choreo-executions/${id}`, t.credentials.alice)).json()) as { execution: unknown };
    expect(end.execution).toEqual(status.execution);
    expect(end.execution.status).toBe('SUCCESS');
  });

  it('resumes after Last-Event-ID with exactly the events missed', async () => {
    const { id, lease } = await takenRun();
    const now = Date.now();
    const first = await openEventStream(t, id, t.credentials.alice);
    await t.executions.checkpoint(id, { nextStep: 1, entries: [], outputs: {} }, lease, [], [started('a', now), ended('a', now + 1)]);
    const seen = await first.waitForEvents(2);
    await first.cancel();
    // Written while no one watches.
    await t.executions.checkpoint(id, { nextStep: 2, entries: [], outputs: {} }, lease, [], [started('b', now + 2), ended('b', now + 3)]);
    const again = await openEventStream(t, id, t.credentials.alice, seen[1]?.id);
    const missed = await again.waitForEvents(2);
    expect(missed.map((frame) => JSON.parse(frame.data ?? '').address as string)).toEqual(['b', 'b']);
    await t.executions.end(id, { status: 'SUCCESS', lease, runEvents: [] });
    const rest = await again.waitUntilClosed();
    expect(rest.map((frame) => frame.event)).toEqual(['step.started', 'step.ended', 'execution.ended']);
    // Resumed from the middle of what it had: nothing twice.
    const resumed = await openEventStream(t, id, t.credentials.alice, seen[0]?.id);
    const fromMiddle = await resumed.waitUntilClosed();
    expect(fromMiddle.map((frame) => frame.id)).toEqual([seen[1]?.id, ...rest.map((frame) => frame.id)]);
  });

  it('replays an ended run and closes; after its end, there is nothing more', async () => {
    const { id, lease } = await takenRun();
    const now = Date.now();
    await t.executions.checkpoint(id, { nextStep: 1, entries: [], outputs: {} }, lease, [], [started('a', now), ended('a', now + 1)]);
    await t.executions.end(id, { status: 'ERROR', lease, error: 'boom' });
    const res = await t.call('GET', `/choreo-executions/${id}/events`, t.credentials.alice, { accept: 'text/event-stream' });
    expect(res.status).toBe(200);
    const replay = await openEventStream(t, id, t.credentials.alice);
    const events = await replay.waitUntilClosed();
    expect(events.map((frame) => frame.event)).toEqual(['step.started', 'step.ended', 'execution.ended']);
    const end = JSON.parse(events[2]?.data ?? '') as { execution: Record<string, string> };
    expect(end.execution).toMatchObject({ id, status: 'ERROR', lasterror: 'boom' });
    const after = await openEventStream(t, id, t.credentials.alice, events[2]?.id);
    expect(await after.waitUntilClosed()).toEqual([]);
  });

  it('tells a run that wrote nothing before its end (an instant run) from its step history, keeping no list for it', async () => {
    const execution = newExecutionFixture({ account: 'acme', choreo: A });
    await t.executions.accept(execution, { maxRunningPerAccount: 0 });
    const stream = await openEventStream(t, execution.id, t.credentials.alice);
    const now = Date.now();
    const step = { id: 'encode', address: 'encode', attempt: 1, start: now, end: now + 2, durationMs: 1.25, host: HOST, outcome: 'succeeded' as const };
    await t.executions.end(execution.id, {
      status: 'SUCCESS',
      untakenBy: { host: HOST, workerId: 'w1' },
      stepEvents: [step],
      runEvents: [started('encode', now), ended('encode', now + 2, 1.25)],
    });
    const events = await stream.waitUntilClosed();
    expect(await t.redis.exists(t.keys.executionEvents(execution.id))).toBe(0);
    expect(events.map((frame) => [frame.id, frame.event])).toEqual([
      ['1', 'step.started'],
      ['2', 'step.ended'],
      ['3', 'execution.ended'],
    ]);
    expect(JSON.parse(events[1]?.data ?? '')).toEqual({
      type: 'step.ended',
      time: String(now + 2),
      address: 'encode',
      step: 'encode',
      attempt: 1,
      host: HOST,
      outcome: 'succeeded',
      durationMs: 1.25,
    });
    const resumed = await openEventStream(t, execution.id, t.credentials.alice, '1');
    expect((await resumed.waitUntilClosed()).map((frame) => frame.id)).toEqual(['2', '3']);
  });

  it('ends the stream of a run terminated while it is watched, and replays a terminated one', async () => {
    const execution = newExecutionFixture({ account: 'acme', choreo: A });
    await t.executions.accept(execution, { maxRunningPerAccount: 0 });
    const stream = await openEventStream(t, execution.id, t.credentials.alice);
    expect((await t.call('DELETE', `/choreo-executions/${execution.id}`, t.credentials.alice)).status).toBe(204);
    const events = await stream.waitUntilClosed();
    expect(events.map((frame) => frame.event)).toEqual(['execution.ended']);
    expect(JSON.parse(events[0]?.data ?? '').execution.status).toBe('TERMINATED_MANUALLY');
    const replay = await openEventStream(t, execution.id, t.credentials.alice);
    expect((await replay.waitUntilClosed()).map((frame) => frame.id)).toEqual(events.map((frame) => frame.id));
  });

  it('sends heartbeats while nothing happens, and lets go of a client that leaves', async () => {
    const { id } = await takenRun();
    const stream = await openEventStream(t, id, t.credentials.alice);
    await waitFor(() => stream.frames().filter((frame) => frame.comment === 'heartbeat').length >= 2, { what: 'two heartbeats' });
    expect(t.runEvents.size()).toBe(1);
    await stream.cancel();
    // Left: the feed no longer watches it.
    await waitFor(() => t.runEvents.size() === 0, { what: 'the feed to let go' });
  });

  it('tells a wait begun and a child started, with what they say', async () => {
    const { id, lease } = await takenRun();
    const now = Date.now();
    const stream = await openEventStream(t, id, t.credentials.alice);
    const child = newExecutionFixture({ account: 'acme', choreo: A, parent: id, depth: 1 });
    await t.executions.accept(child, { maxRunningPerAccount: 0, notifyParent: true, childOf: { address: 'each[2].run' } });
    await t.executions.suspend(id, lease, {
      untilMs: now + 60_000,
      runEvents: [{ type: 'wait.started', time: now, address: 'pause', waitFor: 'time', until: now + 60_000 }],
    });
    const events = await stream.waitForEvents(2);
    expect(events.map((frame) => JSON.parse(frame.data ?? ''))).toEqual([
      { type: 'child.started', time: String(child.starttime), address: 'each[2].run', child: child.id },
      { type: 'wait.started', time: String(now), address: 'pause', waitFor: 'time', until: String(now + 60_000) },
    ]);
    await stream.cancel();
  });
});
