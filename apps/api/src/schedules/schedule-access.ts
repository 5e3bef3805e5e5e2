import type { Principal } from '@ces/accounts';
import { ApiError } from '../errors/api-error.ts';

/** A schedule's name, as it appears in its path: safe in a URL path segment and in a Redis key. */
export const SCHEDULE_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/;

/** An account's schedules are its own: any other name, or another account's, is simply not there. */
export function checkedScheduleName(name: string): string {
  if (!SCHEDULE_NAME.test(name)) throw new ApiError('NOT_FOUND', 'No such schedule.');
  return name;
}

/** Writing, pausing, resuming, triggering and backfilling schedules is for users and for applications granted it. */
export function requireScheduleWriter(principal: Principal, doing: string): void {
  if (!principal.rights.includes('schedules')) {
    throw new ApiError('FORBIDDEN', `These credentials may not ${doing}: an application needs the "schedules" right.`);
  }
}
