import { describe, expect, it } from 'vitest';
import { deferralDelayMs, FIRST_DEFERRAL_MS, LONGEST_DEFERRAL_MS } from './deferral-delay.ts';

describe('deferralDelayMs', () => {
  it('doubles with each refusal, up to the longest wait', () => {
    const top = () => 1;
    expect(deferralDelayMs(1, top)).toBe(FIRST_DEFERRAL_MS);
    expect(deferralDelayMs(2, top)).toBe(2 * FIRST_DEFERRAL_MS);
    expect(deferralDelayMs(4, top)).toBe(8 * FIRST_DEFERRAL_MS);
    expect(deferralDelayMs(7, top)).toBe(LONGEST_DEFERRAL_MS);
    expect(deferralDelayMs(1_000_000, top)).toBe(LONGEST_DEFERRAL_MS);
  });

  it('waits between half the ceiling and all of it', () => {
    expect(deferralDelayMs(3, () => 0)).toBe(2 * FIRST_DEFERRAL_MS);
    expect(deferralDelayMs(3, () => 0.5)).toBe(3 * FIRST_DEFERRAL_MS);
    expect(deferralDelayMs(100, () => 0)).toBe(LONGEST_DEFERRAL_MS / 2);
  });

  it('treats a count below one as the first refusal', () => {
    expect(deferralDelayMs(0, () => 1)).toBe(FIRST_DEFERRAL_MS);
  });
});
