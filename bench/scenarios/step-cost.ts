import type { Row } from '../report.ts';
import { round } from '../latency-summary.ts';
import { runLoad } from '../run-load.ts';
import { BASE64_BODY, BASE64_ENCODE, NO_OP_STEP_COUNT, NO_OP_STEPS, runJob, type ScenarioContext } from './scenario-context.ts';
import { must } from '@ces/testing';

/**
 * Cost per step: NoOpSteps (fifty steps that do nothing) run one at a time; each execution's own
 * end − start (as the service recorded it) divided by fifty. That figure also carries the fixed
 * cost of a run (queue, claim, finish); the marginal cost, against one-step Base64Encode, is kept too.
 */
export async function stepCost(context: ScenarioContext): Promise<Row[]> {
  const job = (choreo: string, body: string | undefined, durationMs: number) =>
    runJob(context, choreo, { async: false, connections: 1, durationMs, maxRequests: 2_000, executionDurations: true, ...(body ? { body } : {}) });
  await runLoad(job(NO_OP_STEPS, undefined, context.warmupMs));
  const many = await runLoad(job(NO_OP_STEPS, undefined, context.durationMs));
  if (many.firstError) context.log(`  ${many.firstError}`);
  const one = await runLoad(job(BASE64_ENCODE, BASE64_BODY, Math.min(context.durationMs, 3_000)));
  context.raw.stepCost = { many, one };
  const perStep = round(must(many.executionDurationMs).p50 / NO_OP_STEP_COUNT, 3);
  const marginal = round((must(many.executionDurationMs).p50 - must(one.executionDurationMs).p50) / (NO_OP_STEP_COUNT - 1), 3);
  return [
    {
      scenario: '4 cost per step',
      figure: `run of ${NO_OP_STEP_COUNT} no-op steps ÷ ${NO_OP_STEP_COUNT}`,
      unit: 'ms',
      value: perStep,
      target: { kind: 'at-most', limit: 0.5 },
      details: {
        marginalPerStepMs: marginal,
        noOpRunDurationMs: many.executionDurationMs,
        oneStepRunDurationMs: one.executionDurationMs,
        runs: many.ok,
      },
    },
  ];
}
