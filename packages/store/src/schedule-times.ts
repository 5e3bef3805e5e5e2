import { CronExpressionParser } from 'cron-parser';

/** When a schedule ticks: a cron expression in a time zone, or a fixed interval. */
export type ScheduleTiming = { cron: string; timezone: string } | { everyMs: number };

const DURATION = /^([1-9][0-9]*)(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds of a duration such as `1s`, `30s`, `5m`, `1h`; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/**
 * Why a timing cannot be used, or undefined when it can. A cron expression has 5 fields, or 6
 * with seconds first; the time zone must be one the runtime's IANA database knows.
 */
export function timingProblem(timing: ScheduleTiming): { field: 'cron' | 'timezone' | 'every'; message: string } | undefined {
  if ('everyMs' in timing) {
    return Number.isSafeInteger(timing.everyMs) && timing.everyMs >= 1_000 ? undefined : { field: 'every', message: 'is not a duration of at least 1s' };
  }
  try {
    new Intl.DateTimeFormat('en', { timeZone: timing.timezone });
  } catch {
    return { field: 'timezone', message: `is not a known time zone: ${timing.timezone}` };
  }
  const fields = timing.cron.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6) return { field: 'cron', message: 'has neither 5 nor 6 fields' };
  try {
    CronExpressionParser.parse(timing.cron, { tz: timing.timezone, strict: false });
  } catch (error) {
    return { field: 'cron', message: error instanceof Error ? error.message : 'is not a cron expression' };
  }
  return undefined;
}

/**
 * The scheduled times (epoch ms) of the next `count` ticks strictly after `afterMs`. Intervals are
 * aligned on the epoch, so every process computes the same ticks whenever it starts; cron times
 * are computed in the schedule's time zone by cron-parser, which applies its daylight saving rules.
 */
export function ticksAfter(timing: ScheduleTiming, afterMs: number, count: number): number[] {
  if ('everyMs' in timing) {
    const first = (Math.floor(afterMs / timing.everyMs) + 1) * timing.everyMs;
    return Array.from({ length: count }, (_, index) => first + index * timing.everyMs);
  }
  const expression = CronExpressionParser.parse(timing.cron, { tz: timing.timezone, currentDate: afterMs });
  return expression.take(count).map((date) => date.getTime());
}
