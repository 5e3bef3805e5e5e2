import type { Row } from '../report.ts';
import { measureServiceThroughput, type Throughput } from './async-throughput.ts';
import type { ScenarioContext } from './scenario-context.ts';
import { must } from '@ces/testing';

const WORKER_COUNTS = [1, 2, 4];

/** Async completed runs per second with 1, 2 and 4 worker processes, beside the figure for 1. */
export async function workerScaling(context: ScenarioContext): Promise<Row[]> {
  const measured = new Map<number, Throughput>();
  for (const count of WORKER_COUNTS) {
    context.log(`  ${count} worker${count > 1 ? 's' : ''}…`);
    await context.stack.setWorkers(count);
    measured.set(count, await measureServiceThroughput(context));
  }
  context.raw.workerScaling = Object.fromEntries(measured);
  const one = must(measured.get(1)).completedPerSecond;
  return WORKER_COUNTS.map((count) => ({
    scenario: '7 worker scaling',
    figure: `completed, ${count} worker${count > 1 ? 's' : ''}`,
    unit: '/s',
    value: must(measured.get(count)).completedPerSecond,
    baseline: { label: '1 worker', value: one },
    details: { acceptedPerSecond: must(measured.get(count)).acceptedPerSecond, runs: must(measured.get(count)).accepted },
  }));
}
