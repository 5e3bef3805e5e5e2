import type { RunEvent, StoredRunEvent } from '@ces/store';
import { newExecutionFixture, waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from '../test-support/in-process-app.ts';

// The process's one feed, as the events route and the console's live pages use it: several
// watchers of one run, each from where it is, each told every new event once.
const A = '/Library/Utilities/Encoding/Base64Encode';
const started = (address: string): RunEvent => ({ type: 'step.started', time: Date.now(), address, step: address, attempt: 1, host: 'h' });

describe('run event feed', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('tells each watcher of a run the events after its own id, once each, until it leaves', async () => {
    const execution = newExecutionFixture({ account: 'acme', choreo: A });
    await t.executions.accept(execution, { maxRunningPerAccount: 0 });
    const lease = 'lease-feed';
    await t.executions.take(execution.id, { host: 'h', workerId: 'w', lease });
    await t.executions.recordRunEvents(execution.id, lease, [started('a'), started('b')]);

    const fromStart: StoredRunEvent[] = [];
    const fromSecond: StoredRunEvent[] = [];
    const leaveFirst = await t.runEvents.subscribe(execution.id, undefined, (events) => fromStart.push(...events));
    const leaveSecond = await t.runEvents.subscribe(execution.id, '1', (events) => fromSecond.push(...events));
    await waitFor(() => fromStart.length === 2 && fromSecond.length === 1, { what: 'what was there' });
    expect(fromStart.map((event) => event.id)).toEqual(['1', '2']);
    expect(fromSecond.map((event) => event.id)).toEqual(['2']);

    await t.executions.recordRunEvents(execution.id, lease, [started('c')]);
    await waitFor(() => fromStart.length === 3 && fromSecond.length === 2, { what: 'the new event' });
    leaveFirst();
    await t.executions.recordRunEvents(execution.id, lease, [started('d')]);
    await waitFor(() => fromSecond.length === 3, { what: 'the next one' });
    expect(fromStart.map((event) => event.id)).toEqual(['1', '2', '3']);
    expect(fromSecond.map((event) => [event.id, event.type])).toEqual([
      ['2', 'step.started'],
      ['3', 'step.started'],
      ['4', 'step.started'],
    ]);
    leaveSecond();
    expect(t.runEvents.size()).toBe(0);
  });
});
