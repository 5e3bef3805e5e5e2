import { describe, expect, it } from 'vitest';
import { runStep } from './run-step-for-test.ts';

describe('random steps', () => {
  it('random.numbers draws each number in its range', async () => {
    const draws = (await Promise.all(Array.from({ length: 200 }, () => runStep('random.numbers', {})))) as {
      unsignedInteger: number;
      signedInteger: number;
      unsignedDecimal: number;
      signedDecimal: number;
    }[];
    for (const draw of draws) {
      expect(Number.isInteger(draw.unsignedInteger) && draw.unsignedInteger >= 0 && draw.unsignedInteger <= 4294967295).toBe(true);
      expect(Number.isInteger(draw.signedInteger) && draw.signedInteger >= -2147483648 && draw.signedInteger <= 2147483647).toBe(true);
      expect(draw.unsignedDecimal >= 0 && draw.unsignedDecimal < 1).toBe(true);
      expect(draw.signedDecimal >= -0.5 && draw.signedDecimal < 0.5).toBe(true);
    }
    // Random: two hundred draws are not all the same (a constant would pass the range checks).
    expect(new Set(draws.map((draw) => draw.unsignedInteger)).size).toBeGreaterThan(190);
    expect(draws.some((draw) => draw.signedInteger < 0) && draws.some((draw) => draw.signedInteger > 0)).toBe(true);
    expect(draws.some((draw) => draw.signedDecimal < 0) && draws.some((draw) => draw.signedDecimal > 0)).toBe(true);
  });

  it('random.numbers and random.guid take no arguments', async () => {
    await expect(runStep('random.numbers', { seed: 1 })).rejects.toThrow();
    await expect(runStep('random.guid', { format: 'x' })).rejects.toThrow();
  });

  it('random.guid gives a different version 4 UUID each time', async () => {
    const guids = (await Promise.all(Array.from({ length: 50 }, () => runStep('random.guid', {})))) as { guid: string }[];
    for (const { guid } of guids) expect(guid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(guids.map(({ guid }) => guid)).size).toBe(50);
  });
});
