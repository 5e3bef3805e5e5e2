import type { StoredSchedule } from '@ces/store';
import { SCHEDULE_NAME } from '../schedules/schedule-access.ts';
import { AdminError, UsageError } from './admin-error.ts';
import { emit, table, type CommandContext } from './command-context.ts';

/**
 * Schedule commands: an operator lists an account's schedules and pauses or resumes one, as
 * `…/schedules/<name>/pause` and `…/resume` do. A resume starts at the first tick after now: the
 * ticks while paused are not caught up.
 */

export function checkScheduleName(name: string): void {
  if (!SCHEDULE_NAME.test(name))
    throw new UsageError(`"${name}" is not a schedule name: letters, digits and . _ @ -, at most 128, starting with a letter or digit`);
}

async function requireAccount(context: CommandContext, account: string) {
  if (!(await context.accounts.accountExists(account))) throw new AdminError(`no account named "${account}"`);
}

const whenOf = (schedule: StoredSchedule) =>
  'everyMs' in schedule.spec.timing ? `every ${schedule.spec.timing.everyMs} ms` : `${schedule.spec.timing.cron} (${schedule.spec.timing.timezone})`;

/** Epoch ms as strings, as every time the service answers. */
const shown = (schedule: StoredSchedule) => ({
  name: schedule.name,
  choreo: schedule.spec.choreo,
  paused: schedule.paused,
  overlap: schedule.spec.overlap,
  nextTime: schedule.paused ? null : String(schedule.cursor),
  fired: schedule.fired,
  skipped: schedule.skipped,
  missed: schedule.missed,
  ...(schedule.lastTick !== undefined ? { lastScheduledTime: String(schedule.lastTick) } : {}),
});

export async function listSchedules(context: CommandContext, account: string) {
  await requireAccount(context, account);
  const schedules = await context.schedules.list(account);
  emit(
    context,
    { account, schedules: schedules.map(shown) },
    schedules.length === 0
      ? [`Account "${account}" has no schedules.`]
      : table(
          ['NAME', 'CHOREO', 'WHEN', 'STATE', 'NEXT', 'FIRED', 'SKIPPED', 'MISSED'],
          schedules.map((schedule) => [
            schedule.name,
            schedule.spec.choreo,
            whenOf(schedule),
            schedule.paused ? 'paused' : 'active',
            schedule.paused ? '' : new Date(schedule.cursor).toISOString(),
            String(schedule.fired),
            String(schedule.skipped),
            String(schedule.missed),
          ]),
        ),
  );
}

export async function setSchedulePaused(context: CommandContext, account: string, name: string, paused: boolean) {
  await requireAccount(context, account);
  const schedule = await context.schedules.setPaused(account, name, paused, Date.now());
  if (!schedule) throw new AdminError(`no schedule "${name}" in account "${account}"`);
  emit(context, { account, schedule: shown(schedule) }, [
    paused
      ? `Paused schedule "${name}" of account "${account}".`
      : `Resumed schedule "${name}" of account "${account}"; next tick ${new Date(schedule.cursor).toISOString()}.`,
  ]);
}
