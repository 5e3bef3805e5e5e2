import type { Row } from '../report.ts';
import { runLoad } from '../run-load.ts';
import { API_BASE, COUNTDOWN, type ScenarioContext } from './scenario-context.ts';
import { must } from '@ces/testing';

/**
 * Long enough that a step that was not cut short would stand out by seconds, and shorter than the
 * workers' durable-wait threshold (DURABLE_WAIT_THRESHOLD_MS, 5 s by default): the run stays on its
 * worker in the wait, which the termination must interrupt. A longer wait would be suspended, and a
 * DELETE ends a suspended run itself, in the same call: nothing to measure.
 */
const STEP_MILLISECONDS = 4_000;

/** DELETE → TERMINATED_MANUALLY on a run inside a long wait step, one run at a time. */
export async function cancellation(context: ScenarioContext): Promise<Row[]> {
  const result = await runLoad(
    {
      kind: 'cancel',
      origin: context.stack.origin,
      caFile: context.stack.caFile,
      headers: context.stack.headers,
      choreoPath: `${API_BASE}/choreos${COUNTDOWN}`,
      stepMilliseconds: STEP_MILLISECONDS,
      durationMs: context.durationMs,
      maxSamples: 500,
    },
    // A run whose wait would not stop ends only after its step: let the generator see that through.
    2 * STEP_MILLISECONDS,
  );
  if (result.firstError) context.log(`  ${result.firstError}`);
  context.raw.cancellation = result;
  const latency = must(result.cancelLatencyMs);
  const scenario = '5 cancellation';
  const details = { samples: latency.count, interruptedMidStep: result.interruptedMidStep, deleteAnswerMs: result.latencyMs, statuses: result.statuses };
  return [
    { scenario, figure: 'DELETE → TERMINATED_MANUALLY p50', unit: 'ms', value: latency.p50, details },
    { scenario, figure: 'DELETE → TERMINATED_MANUALLY p99', unit: 'ms', value: latency.p99, target: { kind: 'at-most', limit: 50 }, details },
  ];
}
