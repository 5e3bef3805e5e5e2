/** The first wait of a deferred execution; each refusal after it doubles the wait. */
export const FIRST_DEFERRAL_MS = 100;
/** The longest wait: a place freed is taken within about this long by a deferred run of the account. */
export const LONGEST_DEFERRAL_MS = 5_000;

/**
 * How long an execution refused for its account's limit waits before it is taken again. Growing
 * waits keep a large backlog of one account from costing the workers a refusal per run every few
 * milliseconds; the random half spreads runs refused together, so they do not all come back at once.
 */
export function deferralDelayMs(deferrals: number, random: () => number = Math.random): number {
  const doublings = Math.min(Math.max(deferrals - 1, 0), 16);
  const ceiling = Math.min(FIRST_DEFERRAL_MS * 2 ** doublings, LONGEST_DEFERRAL_MS);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
