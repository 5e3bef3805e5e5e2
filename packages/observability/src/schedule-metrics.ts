import { Counter, Gauge, Histogram } from 'prom-client';
import type { MetricsRegistry } from './metrics-registry.ts';

/** What a schedule firer counts as it goes (per worker process; Prometheus sums them). */
export interface ScheduleTickMetrics {
  /**
   * A tick started its run, `lagMs` after its scheduled time; without it, a tick that waited under
   * `buffer-one` by the overlap policy, whose wait says nothing of how late the firer was.
   */
  fired(lagMs?: number): void;
  /** Ticks the overlap policy started nothing for. */
  skipped(count: number): void;
  /** Ticks older than the catch-up window, never started. */
  missed(count: number): void;
  /** A tick left waiting under `buffer-one`. */
  buffered(): void;
}

/** From a tick on time (the firer's poll) to one caught up after an outage within the window. */
export const SCHEDULE_LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600];

export function createScheduleTickMetrics(registry: MetricsRegistry): ScheduleTickMetrics {
  const ticks = new Counter({
    name: 'ces_schedule_ticks_total',
    help: 'Ticks of schedules by what came of them: fired (started a run), skipped (overlap policy), missed (older than the catch-up window), buffered.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const lag = new Histogram({
    name: 'ces_schedule_tick_lag_seconds',
    help: "Time from a tick's scheduled time to the start of its run.",
    buckets: SCHEDULE_LAG_BUCKETS,
    registers: [registry],
  });
  return {
    fired(lagMs) {
      ticks.inc({ outcome: 'fired' });
      if (lagMs !== undefined) lag.observe(Math.max(0, lagMs) / 1_000);
    },
    skipped(count) {
      if (count > 0) ticks.inc({ outcome: 'skipped' }, count);
    },
    missed(count) {
      if (count > 0) ticks.inc({ outcome: 'missed' }, count);
    },
    buffered() {
      ticks.inc({ outcome: 'buffered' });
    },
  };
}

/** The schedules of every account, active and paused, read from Redis when Prometheus scrapes. */
export function registerScheduleGauges(registry: MetricsRegistry, source: { counts: () => Promise<{ active: number; paused: number }> }): void {
  new Gauge({
    name: 'ces_schedules',
    help: 'Schedules of every account, by state (active or paused).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const { active, paused } = await source.counts();
      this.set({ state: 'active' }, active);
      this.set({ state: 'paused' }, paused);
    },
  });
}
