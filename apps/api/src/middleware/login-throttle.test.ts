import { describe, expect, it } from 'vitest';
import { createLoginThrottle } from './login-throttle.ts';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function fail(throttle: ReturnType<typeof createLoginThrottle>, client: string, times: number) {
  for (let i = 0; i < times; i += 1) {
    expect(throttle.begin(client)).toBe(0);
    throttle.end(client, true);
  }
}

describe('login throttle', () => {
  it('lets a client fail up to the limit, then refuses it until its window ends', () => {
    const time = clock();
    const throttle = createLoginThrottle({ maxFailures: 3, windowMs: 60_000, now: time.now });
    fail(throttle, '198.51.100.7', 3);
    expect(throttle.begin('198.51.100.7')).toBe(60);
    time.advance(45_500);
    expect(throttle.begin('198.51.100.7')).toBe(15);
    time.advance(14_500);
    expect(throttle.begin('198.51.100.7')).toBe(0);
  });

  it('keeps clients apart', () => {
    const throttle = createLoginThrottle({ maxFailures: 2, now: clock().now });
    fail(throttle, '198.51.100.7', 2);
    expect(throttle.begin('198.51.100.7')).toBeGreaterThan(0);
    expect(throttle.begin('198.51.100.8')).toBe(0);
  });

  it('counts attempts in flight, so parallel guesses cannot all pass before the first failure', () => {
    const throttle = createLoginThrottle({ maxFailures: 3, now: clock().now });
    expect([1, 2, 3].map(() => throttle.begin('c'))).toEqual([0, 0, 0]);
    expect(throttle.begin('c')).toBeGreaterThan(0);
    throttle.end('c', false);
    expect(throttle.begin('c')).toBe(0);
  });

  it('never counts successes', () => {
    const throttle = createLoginThrottle({ maxFailures: 2, now: clock().now });
    for (let i = 0; i < 10; i += 1) {
      expect(throttle.begin('c')).toBe(0);
      throttle.end('c', false);
    }
    fail(throttle, 'c', 2);
    expect(throttle.begin('c')).toBeGreaterThan(0);
  });

  it('starts a fresh window for an attempt still in flight when the old one ends', () => {
    const time = clock();
    const throttle = createLoginThrottle({ maxFailures: 2, windowMs: 1_000, now: time.now });
    fail(throttle, 'c', 1);
    expect(throttle.begin('c')).toBe(0);
    time.advance(1_000);
    expect(throttle.begin('c')).toBe(0);
    throttle.end('c', true);
    throttle.end('c', true);
    expect(throttle.begin('c')).toBe(1);
  });

  it('forgets the oldest client first when it remembers too many', () => {
    const throttle = createLoginThrottle({ maxFailures: 1, maxClients: 2, now: clock().now });
    fail(throttle, 'a', 1);
    fail(throttle, 'b', 1);
    expect(throttle.begin('a')).toBeGreaterThan(0);
    fail(throttle, 'c', 1);
    expect(throttle.begin('b')).toBeGreaterThan(0);
    expect(throttle.begin('a')).toBe(0);
  });

  it('does nothing with a limit of 0', () => {
    const throttle = createLoginThrottle({ maxFailures: 0 });
    for (let i = 0; i < 100; i += 1) {
      expect(throttle.begin('c')).toBe(0);
      throttle.end('c', true);
    }
  });
});
