import { createScheduleStore, type ScheduleStore, tickExecutionId } from '@ces/store';
import { waitFor } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { useWorkerTestStack } from '../support/worker-test-stack.ts';

// Real worker processes fire an every-second schedule: each tick starts exactly one run, through a
// SIGKILL of a worker and a restart of every worker, and ticks missed meanwhile start once each.
describe('schedules fired by worker processes', () => {
  const harness = useWorkerTestStack({ workers: 3, workerEnv: { SCHEDULE_LEASE_MS: '2000', SCHEDULE_POLL_MS: '100' } });
  const account = 'acme';
  const name = 'each-second';

  const state = async (schedules: ScheduleStore) => {
    const schedule = await schedules.get(account, name);
    if (!schedule) throw new Error('the schedule is gone');
    return schedule;
  };
  const firedAtLeast = (schedules: ScheduleStore, count: number) =>
    waitFor(async () => (await state(schedules)).fired >= count, { timeoutMs: 30_000, what: `${count} ticks fired` });

  it('one run per tick, no tick twice and none left out, through a SIGKILL and a restart of every worker', { timeout: 120_000 }, async () => {
    const { stack, counter } = harness;
    const schedules = createScheduleStore({ redis: stack.redis, keys: stack.keys });
    const spec = {
      choreo: '/Test/Counted',
      inputs: [
        { name: 'CounterURL', value: counter.urlFor('schedule') },
        { name: 'WaitMilliseconds', value: '0' },
      ],
      timing: { everyMs: 1_000 },
      overlap: 'allow-all' as const,
      catchupWindowSeconds: 3_600,
    };
    const { schedule } = await schedules.put(account, name, spec, { now: Date.now(), paused: false });
    const first = schedule.cursor;
    await firedAtLeast(schedules, 4);

    const [victim] = stack.workers;
    victim?.kill('SIGKILL');
    await victim?.exited;
    await firedAtLeast(schedules, 8);

    // Every worker gone: ticks pass unfired, then new workers catch them up, each once.
    for (const worker of stack.workers) worker.kill('SIGKILL');
    await Promise.all(stack.workers.map((worker) => worker.exited));
    const outageFrom = (await state(schedules)).cursor;
    await waitFor(() => Date.now() > outageFrom + 3_000, { timeoutMs: 10_000, what: 'ticks missed during the outage' });
    stack.addWorker();
    stack.addWorker();
    await waitFor(async () => (await state(schedules)).cursor > Date.now() - 500 && (await state(schedules)).cursor > outageFrom + 3_000, {
      timeoutMs: 30_000,
      what: 'the outage caught up',
    });

    // Firing stopped, so that what is read next holds still: a firer accepts a tick's run before it
    // moves the cursor past the tick, so the tick at the cursor may have its run already.
    for (const worker of stack.workers) worker.kill('SIGKILL');
    await Promise.all(stack.workers.map((worker) => worker.exited));
    const { cursor, fired, missed } = await state(schedules);
    const ticks = Array.from({ length: (cursor - first) / 1_000 }, (_, index) => first + index * 1_000);
    const runs = await Promise.all(ticks.map((tick) => stack.executions.get(tickExecutionId(account, name, tick))));
    expect(runs.filter((run) => run === undefined)).toEqual([]);
    expect(fired).toBe(ticks.length);
    expect(missed).toBe(0);
    const acceptedAtCursor = (await stack.executions.get(tickExecutionId(account, name, cursor))) === undefined ? 0 : 1;
    // No run other than the ticks' own: the service accepted exactly one per tick.
    expect((await stack.executions.counts()).started).toBe(ticks.length + acceptedAtCursor);
  });
});
