import { createScheduleStore, type ScheduleSpec, type ScheduleStore, tickExecutionId } from '@ces/store';
import { waitFor } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { useWorkerTestStack } from '../support/worker-test-stack.ts';

// Three worker processes fire every-second schedules for a while: each tick one run, run once,
// and `skip` never lets two runs of one schedule overlap.
const LEASE_MS = 2_000;

describe('schedules over time on three workers', () => {
  const harness = useWorkerTestStack({ workers: 3, workerEnv: { SCHEDULE_LEASE_MS: String(LEASE_MS), SCHEDULE_POLL_MS: '100' } });

  const stateOf = async (schedules: ScheduleStore, account: string, name: string) => {
    const schedule = await schedules.get(account, name);
    if (!schedule) throw new Error(`schedule ${name} is gone`);
    return schedule;
  };
  /**
   * Pauses the schedule and waits until what it started holds still: a firer that held it when the
   * pause came may still fire the ticks already due (it accepts a tick's run, then moves the
   * cursor), for at most its lease. Then every run it started has ended, and `fired` counts them.
   */
  const pauseAndSettle = async (schedules: ScheduleStore, account: string, name: string, first: number) => {
    const pausedAt = Date.now();
    await schedules.setPaused(account, name, true, pausedAt);
    const ticks = Array.from({ length: Math.ceil((pausedAt - first) / 1_000) + 1 }, (_, index) => first + index * 1_000);
    const read = async () => {
      const runs = await Promise.all(ticks.map((tick) => harness.stack.executions.get(tickExecutionId(account, name, tick))));
      return { runs, schedule: await stateOf(schedules, account, name) };
    };
    await waitFor(
      async () => {
        const { runs, schedule } = await read();
        const started = runs.filter((run) => run !== undefined);
        return Date.now() > pausedAt + LEASE_MS + 500 && started.length === schedule.fired && started.every((run) => run.status === 'SUCCESS');
      },
      { timeoutMs: 40_000, what: 'the runs started before the pause ended' },
    );
    return read();
  };
  const counted = (tag: string, waitMs: number, overlap: ScheduleSpec['overlap']): ScheduleSpec => ({
    choreo: '/Test/Counted',
    inputs: [
      { name: 'CounterURL', value: harness.counter.urlFor(tag) },
      { name: 'WaitMilliseconds', value: String(waitMs) },
    ],
    timing: { everyMs: 1_000 },
    overlap,
    catchupWindowSeconds: 3_600,
  });

  it('30 s of an every-second schedule: one run per tick, each run once, none left out', { timeout: 120_000 }, async () => {
    const { stack, counter } = harness;
    const schedules = createScheduleStore({ redis: stack.redis, keys: stack.keys });
    const [account, name] = ['steady', 'each-second'];
    const { schedule } = await schedules.put(account, name, counted('steady', 0, 'allow-all'), { now: Date.now(), paused: false });
    await waitFor(async () => (await stateOf(schedules, account, name)).fired >= 30, { timeoutMs: 60_000, what: '30 ticks fired' });
    const { runs, schedule: after } = await pauseAndSettle(schedules, account, name, schedule.cursor);
    // The ticks from the first on each have their run, up to where firing stopped; none after.
    const fired = runs.slice(0, after.fired);
    expect(fired.every((run) => run !== undefined)).toBe(true);
    expect(runs.slice(after.fired).every((run) => run === undefined)).toBe(true);
    expect([after.skipped, after.missed]).toEqual([0, 0]);
    expect(fired.map((run) => run?.schedule)).toEqual(fired.map((_, index) => ({ name, scheduledTime: schedule.cursor + index * 1_000 })));
    // Each run's steps ran once: four counted calls per run, no more.
    for (const step of [0, 2, 4, 6]) expect(counter.count('steady', step)).toBe(after.fired);
    // Spread over the workers, not fired by one alone.
    expect(new Set(fired.map((run) => run?.host)).size).toBeGreaterThan(1);
  });

  it('skip: with runs longer than the interval, the ticks meanwhile start nothing and no two runs overlap', { timeout: 120_000 }, async () => {
    const { stack } = harness;
    const schedules = createScheduleStore({ redis: stack.redis, keys: stack.keys });
    const [account, name] = ['skipping', 'slow'];
    const { schedule } = await schedules.put(account, name, counted('slow', 1_000, 'skip'), { now: Date.now(), paused: false });
    await waitFor(async () => (await stateOf(schedules, account, name)).fired >= 3, { timeoutMs: 60_000, what: 'three runs' });
    const { runs, schedule: after } = await pauseAndSettle(schedules, account, name, schedule.cursor);
    const started = runs.filter((run) => run !== undefined);
    expect(started).toHaveLength(after.fired);
    expect(after.skipped).toBeGreaterThanOrEqual(after.fired);
    expect(after.fired + after.skipped).toBe((after.cursor - schedule.cursor) / 1_000);
    for (let index = 1; index < started.length; index += 1) {
      expect(started[index]?.starttime ?? 0).toBeGreaterThanOrEqual(started[index - 1]?.endtime ?? Number.POSITIVE_INFINITY);
    }
  });
});
