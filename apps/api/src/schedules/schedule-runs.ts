import type { Principal } from '@ces/accounts';
import { type ExecutionRecord, type ExecutionStore, type ScheduleStore, type StoredSchedule, ticksAfter, tickExecutionId } from '@ces/store';
import { ApiError } from '../errors/api-error.ts';
import type { ChoreoLookup } from '../runs/choreo-lookup.ts';
import type { RunLauncher } from '../runs/run-launcher.ts';
import { NEXT_TIMES_SHOWN, type ShownSchedule } from './schedule-representation.ts';

export type TickStart =
  | { outcome: 'started' | 'existing'; record: ExecutionRecord }
  | { outcome: 'skipped' }
  /** Under buffer-one: the tick waits for the last run to end; a firer starts it then under `id`. */
  | { outcome: 'waits'; id: string };

export interface ScheduleRuns {
  /** A schedule with its next ticks and the status of its last run. */
  show(schedule: StoredSchedule): Promise<ShownSchedule>;
  /**
   * Starts the run of one tick at `scheduledTime` for a trigger or a backfill: under the tick's
   * derived id (a tick started twice starts one run), under the schedule's overlap policy (the
   * last fired tick's run going on: `skip` starts nothing, `buffer-one` leaves the tick waiting
   * when no other waits), counted on the schedule.
   */
  startTick(principal: Principal, schedule: StoredSchedule, scheduledTime: number): Promise<TickStart>;
}

const choreoNotRunnable = (choreo: string) => new ApiError('CONFLICT', `The Choreo of this schedule, ${choreo}, is not one these credentials may run now.`);

export function createScheduleRuns(deps: {
  schedules: ScheduleStore;
  executions: ExecutionStore;
  lookup: ChoreoLookup;
  launcher: RunLauncher;
  /** How many shards a tick at a time maps among (ShardLayout.shardsAt; 1 when absent): its run is on the one its schedule maps to. */
  shardsAt?: (time: number) => number;
}): ScheduleRuns {
  const { schedules, executions, lookup, launcher } = deps;
  const tickId = (account: string, name: string, scheduledTime: number) => tickExecutionId(account, name, scheduledTime, deps.shardsAt?.(scheduledTime) ?? 1);
  const lastRunGoesOn = async (schedule: StoredSchedule, lastTick: number) =>
    (await executions.summary(tickId(schedule.account, schedule.name, lastTick), { withOutputs: false }))?.status === 'RUNNING';

  return {
    async show(schedule) {
      const nextTimes = schedule.paused ? [] : [schedule.cursor, ...ticksAfter(schedule.spec.timing, schedule.cursor, NEXT_TIMES_SHOWN - 1)];
      if (schedule.lastTick === undefined) return { schedule, nextTimes };
      const id = tickId(schedule.account, schedule.name, schedule.lastTick);
      const last = await executions.summary(id, { withOutputs: false });
      return { schedule, nextTimes, lastRun: { id, scheduledTime: schedule.lastTick, status: last?.status ?? 'GONE' } };
    },

    async startTick(principal, schedule, scheduledTime) {
      const { account, name, spec } = schedule;
      const id = tickId(account, name, scheduledTime);
      const before = await executions.get(id);
      if (before !== undefined) return { outcome: 'existing', record: before };
      // Under buffer-one a tick waiting already goes first: this one is skipped, as the firer does.
      const waiting = spec.overlap === 'buffer-one' && schedule.buffered !== undefined;
      if (spec.overlap !== 'allow-all' && (waiting || (schedule.lastTick !== undefined && (await lastRunGoesOn(schedule, schedule.lastTick))))) {
        if (spec.overlap === 'buffer-one') {
          // A tick left waiting starts as these credentials' run would: they must be able to run it.
          if ((await lookup.find(principal, spec.choreo)) === undefined) throw choreoNotRunnable(spec.choreo);
          return (await schedules.bufferTick(account, name, scheduledTime, Date.now())) === 'waits' ? { outcome: 'waits', id } : { outcome: 'skipped' };
        }
        await schedules.recordRun(account, name, scheduledTime, 'skipped');
        return { outcome: 'skipped' };
      }
      const found = await lookup.find(principal, spec.choreo);
      if (found === undefined) throw choreoNotRunnable(spec.choreo);
      const inputs = Object.fromEntries(spec.inputs.map((input) => [input.name, input.value]));
      const { record, replayed } = await launcher.launch(
        principal,
        found.entry,
        { inputs, outputFilters: [], ...(spec.preset !== undefined ? { preset: spec.preset } : {}) },
        {
          wait: false,
          sourceId: '',
          storeResults: true,
          ...(found.version !== undefined ? { choreoVersion: found.version } : {}),
          tick: { executionId: id, schedule: { name, scheduledTime } },
        },
      );
      if (replayed) return { outcome: 'existing', record };
      await schedules.recordRun(account, name, scheduledTime, 'fired');
      return { outcome: 'started', record };
    },
  };
}
