import { backfillScheduleOperation } from '../routes/backfill-schedule.ts';
import { deleteScheduleOperation } from '../routes/delete-schedule.ts';
import { getScheduleOperation } from '../routes/get-schedule.ts';
import { listSchedulesOperation } from '../routes/list-schedules.ts';
import { pauseScheduleOperation, resumeScheduleOperation } from '../routes/pause-schedule.ts';
import { putScheduleOperation } from '../routes/put-schedule.ts';
import { triggerScheduleOperation } from '../routes/trigger-schedule.ts';
import type { Operation } from './operation.ts';

/** The schedule operations, in the order the reference lists them. */
export const scheduleOperations: readonly Operation[] = [
  listSchedulesOperation,
  getScheduleOperation,
  putScheduleOperation,
  deleteScheduleOperation,
  pauseScheduleOperation,
  resumeScheduleOperation,
  triggerScheduleOperation,
  backfillScheduleOperation,
];
