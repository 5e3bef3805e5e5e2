import type { LatencySummary } from './load-job.ts';
import { must } from '@ces/testing';

/** Nearest-rank percentiles: with few samples p99 is the worst one, never an interpolation below it. */
export function summarize(samples: number[]): LatencySummary {
  if (samples.length === 0) return { count: 0, mean: 0, p50: 0, p90: 0, p99: 0, max: 0 };
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) => must(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return { count: sorted.length, mean: round(mean), p50: round(rank(50)), p90: round(rank(90)), p99: round(rank(99)), max: round(must(sorted.at(-1))) };
}

export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
