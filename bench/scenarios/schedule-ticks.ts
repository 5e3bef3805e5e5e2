import type { Redis } from 'ioredis';
import { createScheduleStore, type KeySpace, tickExecutionId } from '@ces/store';
import { until } from '../bench-stack.ts';
import { round, summarize } from '../latency-summary.ts';
import { redisInfo } from '../redis-info.ts';
import type { Row } from '../report.ts';
import { BASE64_ENCODE, type ScenarioContext } from './scenario-context.ts';

/** Accounts the schedules are spread over, so that no account's limit of running runs refuses a tick. */
const ACCOUNTS = 20;
const MINUTE_MS = 60_000;
/** Least time from the scenario's start to the measured tick: enough to put every schedule first. */
const LEAD_MS = 30_000;
/** How long the memory is left to settle after the puts before it is read. */
const SETTLE_MS = 3_000;
/** Schedules put at once: one round trip at a time took 10–40 s for 10,000 on a busy machine. */
const PUTS_IN_FLIGHT = 200;

async function usedMemory(redis: Redis): Promise<number> {
  return Number((await redisInfo(redis, 'memory')).get('used_memory') ?? 0);
}

/**
 * Redis's memory once what passes has gone: the read buffers of a burst of commands are given back,
 * and a dictionary that grew has finished rehashing, a second or two later (its cron); read before
 * and after the puts alike, so that neither side counts what the other gives back.
 */
async function settledMemory(redis: Redis): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  return usedMemory(redis);
}

/**
 * What the schedules' own keys hold, by MEMORY USAGE (each counts its key's name and dictionary
 * entry): their hashes, the due set and the accounts' sets, every member counted (SAMPLES 0). Apart
 * from used_memory, which moves with whatever else the stack writes meanwhile.
 */
async function heldBySchedules(redis: Redis, keys: KeySpace, names: [string, string][]) {
  const usage = async (commands: string[][]) => {
    const pipeline = redis.pipeline();
    for (const command of commands) pipeline.call('MEMORY', 'USAGE', ...command);
    return ((await pipeline.exec()) ?? []).reduce((sum, [, value]) => sum + Number(value ?? 0), 0);
  };
  const hashes = await usage(names.map(([account, name]) => [keys.schedule(account, name)]));
  const due = await usage([[keys.schedulesDue(), 'SAMPLES', '0']]);
  const accountSets = await usage([...new Set(names.map(([account]) => account))].map((account) => [keys.accountSchedules(account), 'SAMPLES', '0']));
  return { hashes, due, accountSets, total: hashes + due + accountSets };
}

/**
 * `count` schedules every minute (BENCH_SCHEDULES; the target's 10,000), fired by the stack's two
 * workers: the lag from each tick to its run's acceptance (the record's start time), p99 ≤ 1 s, and
 * the Redis memory each schedule holds between its ticks.
 */
export function scheduleTicks(count: number) {
  return async (context: ScenarioContext): Promise<Row[]> => {
    const { redis, keys } = context.stack;
    const schedules = createScheduleStore({ redis, keys });
    const before = await settledMemory(redis);
    // The first minute far enough ahead for every put to land before it: a schedule put after its
    // tick would fire late by the put's own delay, and its run would count in the memory figure.
    const tick = (Math.floor((Date.now() + LEAD_MS) / MINUTE_MS) + 1) * MINUTE_MS;
    const names: [string, string][] = Array.from({ length: count }, (_, index) => [`sched-${index % ACCOUNTS}`, `minutely-${index}`]);
    for (let start = 0; start < count; start += PUTS_IN_FLIGHT) {
      await Promise.all(
        names.slice(start, start + PUTS_IN_FLIGHT).map(([account, name]) =>
          schedules.put(
            account,
            name,
            {
              choreo: BASE64_ENCODE,
              inputs: [{ name: 'Text', value: 'tick' }],
              timing: { everyMs: MINUTE_MS },
              overlap: 'allow-all',
              catchupWindowSeconds: 3_600,
            },
            // Its first tick after this is `tick`.
            { now: tick - 1, paused: false },
          ),
        ),
      );
    }
    const perSchedule = (await settledMemory(redis)) - before;
    const held = await heldBySchedules(redis, keys, names);
    const ahead = tick - Date.now();
    if (ahead < 1_000) throw new Error(`putting the schedules outlasted their tick (${ahead} ms ahead): the lag would measure the puts`);
    context.log(`  ${count} schedules put; their tick is in ${Math.round(ahead / 1000)} s`);
    const starts = async () => {
      const pipeline = redis.pipeline();
      for (const [account, name] of names) pipeline.hget(keys.execution(tickExecutionId(account, name, tick)), 'starttime');
      return ((await pipeline.exec()) ?? []).map(([, value]) => (value === null ? undefined : Number(value)));
    };
    // Waited for by the service's count of started runs, one command a look: reading every run's
    // start time on each look would load the Redis whose time is measured.
    const started = async () => Number((await redis.hget(keys.executionCounts(), 'started')) ?? 0);
    const startedBefore = await started();
    await until(async () => (await started()) - startedBefore >= count, ahead + 60_000, 'every tick started', 100);
    await until(async () => (await starts()).every((start) => start !== undefined), 10_000, 'the run of every tick recorded', 500);
    const lags = (await starts()).map((start) => (start as number) - tick);
    const lag = summarize(lags);
    const perEach = (bytes: number) => round(bytes / count, 0);
    const heldPerSchedule = { hash: perEach(held.hashes), dueMember: perEach(held.due), accountSetMember: perEach(held.accountSets) };
    context.raw.scheduleTicks = { count, lag, memoryBytes: perSchedule, heldBytes: held };
    for (const [account, name] of names) await schedules.delete(account, name);
    return [
      {
        scenario: `${count} schedules every minute`,
        figure: 'tick to run start p99',
        unit: 'ms',
        value: lag.p99,
        target: { kind: 'at-most', limit: 1000 },
        details: { lag },
      },
      {
        scenario: `${count} schedules every minute`,
        figure: 'Redis memory per schedule',
        unit: 'B',
        value: round(perSchedule / count, 0),
      },
      {
        scenario: `${count} schedules every minute`,
        figure: 'its keys per schedule (MEMORY USAGE)',
        unit: 'B',
        value: perEach(held.total),
        details: heldPerSchedule,
      },
    ];
  };
}
