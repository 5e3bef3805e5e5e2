import type { ScenarioContext } from './scenario-context.ts';

/**
 * How many rounds service and baseline take turns in. On a shared machine whose speed drifts over
 * seconds, both then see the same conditions, which one phase each, one after the other, did not
 * guarantee (the GET ratio once swung from 0.22 to 0.45 between runs minutes apart).
 */
export const ROUNDS = 4;
/** Each round's generator is a fresh process: it runs this long unrecorded first. */
export const ROUND_WARMUP_MS = 500;

/**
 * Splits the measured time (`BENCH_SECONDS`) into ROUNDS rounds a side, service first in each, and
 * returns every round's measurement for each side.
 */
export async function alternatingRounds<T>(
  context: ScenarioContext,
  measure: (side: 'service' | 'baseline', roundMs: number) => Promise<T>,
): Promise<{ service: T[]; baseline: T[] }> {
  const roundMs = Math.max(1_000, Math.round(context.durationMs / ROUNDS));
  const service: T[] = [];
  const baseline: T[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    service.push(await measure('service', roundMs));
    baseline.push(await measure('baseline', roundMs));
  }
  return { service, baseline };
}
