import type { Principal } from '@ces/accounts';
import { type ExecutionRecord, type ExecutionStore, type ScheduleStore, type StoredSchedule, ticksAfter, tickExecutionId } from '@ces/store';
import { ApiError } from '../errors/api-error.ts';
import type { ChoreoLookup } from '../runs/choreo-lookup.ts';
import type { RunLauncher } from '../runs/run-launcher.ts';
import { NEXT_TIMES_SHOWN, type ShownSchedule } from './schedule-representation.ts';

export type TickStart = { outcome: 'started' | 'existing'; record: ExecutionRecord } | { outcome: 'skipped' };

export interface ScheduleRuns {
  /** A schedule with its next ticks and the status of its last run. */
  show(schedule: StoredSchedule): Promise<ShownSchedule>;
  /**
   * Starts the run of one tick at `scheduledTime` for a trigger or a backfill: under the tick's
   * derived id (a tick started twice starts one run), under the schedule's overlap policy (the
   * last fired tick's run going on: `skip` and `buffer-one` start nothing), counted on the schedule.
   */
  startTick(principal: Principal, schedule: StoredSchedule, scheduledTime: number): Promise<TickStart>;
}

export function createScheduleRuns(deps: { schedules: ScheduleStore; executions: ExecutionStore; lookup: ChoreoLookup; launcher: RunLauncher }): ScheduleRuns {
  const { schedules, executions, lookup, launcher } = deps;

  return {
    async show(schedule) {
      const nextTimes = schedule.paused ? [] : [schedule.cursor, ...ticksAfter(schedule.spec.timing, schedule.cursor, NEXT_TIMES_SHOWN - 1)];
      if (schedule.lastTick === undefined) return { schedule, nextTimes };
      const id = tickExecutionId(schedule.account, schedule.name, schedule.lastTick);
      const last = await executions.summary(id, { withOutputs: false });
      return { schedule, nextTimes, lastRun: { id, scheduledTime: schedule.lastTick, status: last?.status ?? 'GONE' } };
    },

    async startTick(principal, schedule, scheduledTime) {
      const { account, name, spec } = schedule;
      const id = tickExecutionId(account, name, scheduledTime);
      const before = await executions.get(id);
      if (before !== undefined) return { outcome: 'existing', record: before };
      if (spec.overlap !== 'allow-all' && schedule.lastTick !== undefined) {
        const previous = await executions.summary(tickExecutionId(account, name, schedule.lastTick), { withOutputs: false });
        if (previous?.status === 'RUNNING') {
          await schedules.recordRun(account, name, scheduledTime, 'skipped');
          return { outcome: 'skipped' };
        }
      }
      const found = await lookup.find(principal, spec.choreo);
      if (found === undefined) throw new ApiError('CONFLICT', `The Choreo of this schedule, ${spec.choreo}, is not one these credentials may run now.`);
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
