import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

const ECHO = '/Library/Utilities/Development/Echo';

// A schedule driven through the REST interface of a real API process, fired and run by real
// workers: written, shown with its last run, paused and resumed, triggered, backfilled, deleted.
describe('schedules through the REST interface', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 2 });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const ended = (id: string) =>
    waitFor(
      async () => {
        const execution = stack.call('GET', `/choreo-executions/${id}`, stack.credentials.alice).then((res) => res.json().execution);
        return (await execution).status === 'SUCCESS' ? await execution : undefined;
      },
      { timeoutMs: 30_000, what: `run ${id} ended` },
    );

  it('fires, pauses, resumes, triggers, backfills and deletes', { timeout: 120_000 }, async () => {
    const { alice } = stack.credentials;
    const put = await stack.call('PUT', '/schedules/ping', alice, {
      body: JSON.stringify({ choreo: ECHO, inputs: [{ name: 'Message', value: 'tick' }], every: '1s', overlap: 'allow-all' }),
    });
    expect(put.status, put.text).toBe(201);
    const shown = await waitFor(
      async () => {
        const schedule = (await stack.call('GET', '/schedules/ping', alice)).json();
        return schedule.fired >= 3 && schedule.lastRun?.status === 'SUCCESS' ? schedule : undefined;
      },
      { timeoutMs: 30_000, what: 'three ticks fired by the workers' },
    );
    const last = await ended(shown.lastRun.id);
    expect(last).toMatchObject({ schedule: 'ping', scheduledTime: shown.lastRun.scheduledTime });

    const paused = await stack.call('POST', '/schedules/ping/pause', alice, { body: JSON.stringify({ note: 'quiet hours' }) });
    expect(paused.json()).toMatchObject({ state: 'paused', stateNote: 'quiet hours', nextTimes: [] });
    const resumed = (await stack.call('POST', '/schedules/ping/resume', alice)).json();
    expect(resumed.state).toBe('active');
    expect(Number(resumed.nextTimes[0])).toBeGreaterThan(Date.now() - 1_000);

    const triggered = await stack.call('POST', '/schedules/ping/trigger', alice);
    expect(triggered.status, triggered.text).toBe(202);
    const run = triggered.json();
    expect(await ended(run.id)).toMatchObject({ schedule: 'ping', scheduledTime: run.execution.scheduledTime });

    // A range before the schedule existed: each tick once, the workers run them.
    const from = Math.floor(Date.now() / 1_000) * 1_000 - 600_000;
    const backfill = await stack.call('POST', '/schedules/ping/backfill', alice, { body: JSON.stringify({ from, to: from + 2_000 }) });
    expect(backfill.status, backfill.text).toBe(202);
    const filled = backfill.json();
    expect(filled).toMatchObject({ ticks: 3, skipped: 0, existing: 0 });
    for (const [index, started] of (filled.started as { id: string; scheduledTime: string }[]).entries()) {
      expect(started.scheduledTime).toBe(String(from + index * 1_000));
      await ended(started.id);
    }
    const again = await stack.call('POST', '/schedules/ping/backfill', alice, { body: JSON.stringify({ from, to: from + 2_000 }) });
    expect(again.json()).toMatchObject({ ticks: 3, started: [], existing: 3 });

    expect((await stack.call('DELETE', '/schedules/ping', alice)).status).toBe(204);
    expect((await stack.call('GET', '/schedules', alice)).json()).toEqual({ schedules: [] });
  });
});
