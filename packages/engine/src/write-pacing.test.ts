import { describe, expect, it } from 'vitest';
import { MAX_UNWRITTEN_STEPS, WritePacing } from './write-pacing.ts';

describe('WritePacing', () => {
  it('is due once the bound has passed since the last write, and not again until it passes anew', () => {
    let now = 0;
    const pacing = new WritePacing(100, () => now);
    now = 99;
    expect(pacing.due()).toBe(false);
    now = 100;
    expect(pacing.due()).toBe(true);
    pacing.wrote();
    now = 150;
    expect(pacing.due()).toBe(false);
  });

  it('is due once enough step attempts wait, each retry counting as the event it adds', () => {
    const pacing = new WritePacing(100, () => 0);
    for (let step = 1; step < MAX_UNWRITTEN_STEPS / 10; step++) pacing.stepEnded(10);
    expect(pacing.due()).toBe(false);
    pacing.stepEnded(10);
    expect(pacing.due()).toBe(true);
    pacing.wrote();
    expect(pacing.due()).toBe(false);
  });
});
