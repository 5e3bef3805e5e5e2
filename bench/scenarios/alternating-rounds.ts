import type { ScenarioContext } from './scenario-context.ts';

/**
 * How many rounds the sides take turns in. On a shared machine whose speed drifts over seconds,
 * all sides then see the same conditions, which one phase each, one after the other, did not
 * guarantee (the GET ratio once swung from 0.22 to 0.45 between runs minutes apart).
 */
export const ROUNDS = 4;
/** Each round's generator is a fresh process: it runs this long unrecorded first. */
export const ROUND_WARMUP_MS = 500;

/**
 * Splits the measured time (`BENCH_SECONDS`) into ROUNDS rounds a side, the sides measured in the
 * order given within each round (or, `mirrored`, in the reverse order every other round: A B, B A,
 * so that a drift one way over the scenario weighs on both sides alike), and returns every round's
 * measurement for each side.
 */
export async function alternatingRounds<T, S extends string>(
  context: ScenarioContext,
  sides: readonly S[],
  measure: (side: S, roundMs: number) => Promise<T>,
  options: { mirrored?: boolean } = {},
): Promise<Record<S, T[]>> {
  const roundMs = Math.max(1_000, Math.round(context.durationMs / ROUNDS));
  const measured = Object.fromEntries(sides.map((side) => [side, [] as T[]])) as Record<S, T[]>;
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = options.mirrored && round % 2 === 1 ? [...sides].reverse() : sides;
    for (const side of order) measured[side].push(await measure(side, roundMs));
  }
  return measured;
}
