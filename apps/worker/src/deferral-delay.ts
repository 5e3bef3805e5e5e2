/** The first wait of a deferred execution; each refusal after it doubles the wait. */
export const FIRST_DEFERRAL_MS = 100;
/** The longest wait of an account with few runs waiting. */
export const LONGEST_DEFERRAL_MS = 5_000;
/**
 * With more runs waiting, the longest wait grows by this much per run, so that all of an account's
 * refused runs together come back about once per this long (up to 12,000 of them; beyond, each
 * every ten minutes at most): a place freed is still taken within about this long, and refusals
 * cost Redis a few dozen a second per account rather than one per run every few seconds (10,000
 * runs waiting were about 2,700 refusals a second, more than half of Redis).
 */
export const DEFERRAL_SPACING_MS = 50;
/** The longest wait of all, whatever waits: a run comes back at least this often. */
export const LONGEST_DEFERRAL_EVER_MS = 10 * 60_000;

/**
 * How long an execution refused for its account's limit waits before it is taken again: doubling
 * with each refusal, up to a ceiling that grows with the account's runs waiting (`waiting`). The
 * random half spreads runs refused together, so they do not all come back at once.
 */
export function deferralDelayMs(deferrals: number, waiting = 1, random: () => number = Math.random): number {
  const longest = Math.min(Math.max(LONGEST_DEFERRAL_MS, waiting * DEFERRAL_SPACING_MS), LONGEST_DEFERRAL_EVER_MS);
  const doublings = Math.min(Math.max(deferrals - 1, 0), 32);
  const ceiling = Math.min(FIRST_DEFERRAL_MS * 2 ** doublings, longest);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
