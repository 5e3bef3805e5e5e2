import { describe, expect, it } from 'vitest';
import { DEFERRAL_SPACING_MS, deferralDelayMs, FIRST_DEFERRAL_MS, LONGEST_DEFERRAL_EVER_MS, LONGEST_DEFERRAL_MS } from './deferral-delay.ts';

describe('deferralDelayMs', () => {
  it('doubles with each refusal, up to the longest wait', () => {
    const top = () => 1;
    expect(deferralDelayMs(1, 1, top)).toBe(FIRST_DEFERRAL_MS);
    expect(deferralDelayMs(2, 1, top)).toBe(2 * FIRST_DEFERRAL_MS);
    expect(deferralDelayMs(4, 1, top)).toBe(8 * FIRST_DEFERRAL_MS);
    expect(deferralDelayMs(7, 1, top)).toBe(LONGEST_DEFERRAL_MS);
    expect(deferralDelayMs(1_000_000, 1, top)).toBe(LONGEST_DEFERRAL_MS);
  });

  it('waits between half the ceiling and all of it', () => {
    expect(deferralDelayMs(3, 1, () => 0)).toBe(2 * FIRST_DEFERRAL_MS);
    expect(deferralDelayMs(3, 1, () => 0.5)).toBe(3 * FIRST_DEFERRAL_MS);
    expect(deferralDelayMs(100, 1, () => 0)).toBe(LONGEST_DEFERRAL_MS / 2);
  });

  it('treats a count below one as the first refusal', () => {
    expect(deferralDelayMs(0, 1, () => 1)).toBe(FIRST_DEFERRAL_MS);
  });

  it('waits longer the more runs of the account wait, so that they come back together about as often', () => {
    const top = () => 1;
    expect(deferralDelayMs(100, 100, top)).toBe(LONGEST_DEFERRAL_MS);
    expect(deferralDelayMs(100, 1_000, top)).toBe(1_000 * DEFERRAL_SPACING_MS);
    expect(deferralDelayMs(100, 1_000_000, top)).toBe(LONGEST_DEFERRAL_EVER_MS);
    // The doubling still starts small: a run refused once comes back soon, however many wait.
    expect(deferralDelayMs(1, 1_000_000, top)).toBe(FIRST_DEFERRAL_MS);
    // Refusals a second, all of an account's runs together, with waits at their mean (¾ of the ceiling).
    for (const waiting of [100, 1_000, 10_000]) {
      const perSecond = waiting / (deferralDelayMs(100, waiting, () => 0.5) / 1000);
      expect(perSecond).toBeLessThan(30);
    }
  });
});
