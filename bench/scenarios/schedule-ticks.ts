import type { Redis } from 'ioredis';
import { createScheduleStore, tickExecutionId } from '@ces/store';
import { until } from '../bench-stack.ts';
import { round, summarize } from '../latency-summary.ts';
import { redisInfo } from '../redis-info.ts';
import type { Row } from '../report.ts';
import { BASE64_ENCODE, type ScenarioContext } from './scenario-context.ts';

/** Accounts the schedules are spread over, so that no account's limit of running runs refuses a tick. */
const ACCOUNTS = 20;
const MINUTE_MS = 60_000;

async function usedMemory(redis: Redis): Promise<number> {
  return Number((await redisInfo(redis, 'memory')).get('used_memory') ?? 0);
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
    const before = await usedMemory(redis);
    const now = Date.now();
    const names: [string, string][] = [];
    for (let index = 0; index < count; index += 1) {
      const account = `sched-${index % ACCOUNTS}`;
      const name = `minutely-${index}`;
      names.push([account, name]);
      await schedules.put(
        account,
        name,
        {
          choreo: BASE64_ENCODE,
          inputs: [{ name: 'Text', value: 'tick' }],
          timing: { everyMs: MINUTE_MS },
          overlap: 'allow-all',
          catchupWindowSeconds: 3_600,
        },
        { now, paused: false },
      );
    }
    const perSchedule = (await usedMemory(redis)) - before;
    const tick = (Math.floor(now / MINUTE_MS) + 1) * MINUTE_MS;
    context.log(`  ${count} schedules put; their tick is in ${Math.round((tick - Date.now()) / 1000)} s`);
    const starts = async () => {
      const pipeline = redis.pipeline();
      for (const [account, name] of names) pipeline.hget(keys.execution(tickExecutionId(account, name, tick)), 'starttime');
      return ((await pipeline.exec()) ?? []).map(([, value]) => (value === null ? undefined : Number(value)));
    };
    await until(async () => (await starts()).every((start) => start !== undefined), MINUTE_MS + 60_000, 'every tick started', 500);
    const lags = (await starts()).map((start) => (start as number) - tick);
    const lag = summarize(lags);
    context.raw.scheduleTicks = { count, lag, memoryBytes: perSchedule };
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
    ];
  };
}
